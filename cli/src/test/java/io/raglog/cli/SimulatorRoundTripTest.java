package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.TopologySettings;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.FileSink;
import io.raglog.simulator.profile.Profiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every simulator profile's logs (real vendor stacks, proxy calls and OTLP traces, hinted and not), replayed
 * through {@code replay}, assemble into exactly one correct Run per label line.
 */
class SimulatorRoundTripTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path dir;

    @Test
    void shouldAssembleOneCorrectRunPerLabelForEveryProfile() throws Exception {
        Path traffic = dir.resolve("traffic");
        try (FileSink sink = new FileSink(traffic)) {
            // every profile the simulator ships, the held-out ones too: each is a wire shape the job must assemble
            new Simulator(SimulatorOptions.of(String.join(",", Profiles.names()), 280, 17)).run(sink);
        }
        Path runsFile = dir.resolve("runs.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(traffic.resolve(FileSink.CALLS)),
                List.of(traffic.resolve(FileSink.TRACES)),
                ReplayCommand.Outputs.runsOnly(runsFile, dir.resolve("dlq.jsonl")), 2, TopologySettings.DEFAULTS);

        List<Label> labels = Files.readAllLines(traffic.resolve(FileSink.LABELS)).stream()
                .map(l -> Json.read(l, Label.class)).toList();
        Map<String, Run> runs = new HashMap<>();
        Files.readAllLines(runsFile).forEach(l -> {
            Run run = Json.read(l, Run.class);
            runs.put(run.runId(), run);
        });
        assertThat(summary.deadLetterCount()).isZero();
        assertThat(summary.runCount()).isEqualTo(labels.size());

        Map<String, Integer> perProfile = new TreeMap<>();
        Map<String, Integer> gated = new TreeMap<>();
        // a profile's stages: a label is null where the profile has no such stage, and also where a stage is
        // present but unlabeled (retrieval for an unanswerable question)
        Map<String, java.util.Set<Stage>> profileStages = SimulatorLabels.stagesByProfile(labels);
        for (Label label : labels) {
            perProfile.merge(label.profile(), 1, Integer::sum);
            Run run = runs.get(label.runId());
            assertThat(run).as("the run of %s", label.runId()).isNotNull();
            assertThat(run.incomplete()).isFalse();
            assertThat(run.question()).isEqualTo(label.question());
            if (run.stages().generate().stoppedByGate()) {
                // the pipeline's relevance gate stopped it (unseen-gated-claude): the gate's reply is what it said
                assertThat(run.stages().generate().gateReply()).isEqualTo(label.answer());
                assertThat(run.stages().generate().answer()).isEqualTo(GenerateStage.GATE_STOPPED_ANSWER);
                gated.merge(label.profile(), 1, Integer::sum);
            } else {
                assertThat(run.stages().generate().answer()).isEqualTo(label.answer());
            }
            assertThat(run.callIds()).contains(label.generatorEventId());
            for (Stage stage : Stage.values()) {
                assertThat(run.has(stage)).as("%s in %s", stage, label.profile())
                        .isEqualTo(profileStages.get(label.profile()).contains(stage));
            }
            // what the generator saw is what the reranker kept (or, without one, what was retrieved), whole or cut
            // short by the pipeline's context budget; the assemble stage says which were cut
            List<String> upstream = (run.has(Stage.RERANK) ? run.stages().rerank().output()
                    : run.stages().retrieve().passages()).stream().map(Passage::text).toList();
            List<String> context = run.stages().generate().context().stream().map(Passage::text).toList();
            assertThat(context).as("context of %s in %s", label.runId(), label.profile()).isNotEmpty()
                    .allSatisfy(text -> assertThat(upstream).anySatisfy(u -> assertThat(u).startsWith(text.strip())));
            // (a budget that leaves a passage fewer than 40 characters leaves too little to tell a cut from a phrase
            // that happens to open it: assembly reads that as dropped, PromptMatches.MIN_KEPT_CHARS)
            boolean cutToAPhrase = context.stream().filter(text -> !upstream.contains(text))
                    .anyMatch(text -> text.strip().length() >= 40);
            if (cutToAPhrase) {
                assertThat(run.stages().assemble().passages()).as("a cut passage in %s", label.runId())
                        .anySatisfy(p -> assertThat(p.fate()).isEqualTo(PassageFate.Fate.CUT));
            }
        }
        assertThat(perProfile.keySet()).containsExactlyInAnyOrderElementsOf(Profiles.names());
        assertThat(perProfile).allSatisfy((profile, n) -> assertThat(n).isGreaterThan(20));
        // only the profile with a gate stops runs there, and it stops some
        assertThat(gated.keySet()).containsExactly("unseen-gated-claude");
    }
}

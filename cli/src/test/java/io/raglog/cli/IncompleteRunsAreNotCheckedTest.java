package io.raglog.cli;

import io.raglog.assemble.IncompleteRuns;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.job.JobSettings;
import io.raglog.job.TopologySettings;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.LlmTestServer;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * Incomplete runs (one abandoned before its generator call, one made of calls no run claimed) are written to the runs
 * output with their reason, and never checked: no feature vector, no verdict, and not one request to the LLM endpoint
 * about them; the job counts them. The whole job over a replay, against a local OpenAI-compatible endpoint.
 */
class IncompleteRunsAreNotCheckedTest {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .build());

    @TempDir
    Path dir;

    @Test
    void shouldWriteIncompleteRunsWithoutCheckingOrScoringThemAndCountThem() throws Exception {
        MemorySink simulated = new MemorySink();
        // a profile whose embedded text is its rewrite verbatim: an abandoned run whose embedding is prefixed or damaged
        // still leaves in more than one piece (near-text links are not applied to calls that expire without a generator)
        new Simulator(SimulatorOptions.of("openai-qdrant-cohere", 10, 5).withFaultRate(0)).run(simulated);
        List<CallEvent> events = simulated.calls();
        List<Label> labels = simulated.labels();
        Label abandoned = labels.get(0); // its generator call never came
        Label splitOff = labels.get(1); // its rewrite and generator calls never came: what is left has no question
        CallClassifier classifier = BuiltInAdapters.classifier();
        List<String> lines = new ArrayList<>();
        for (CallEvent e : events) {
            Stage stage = classifier.classify(e) instanceof Classification.Classified c ? c.call().stage() : null;
            boolean generator = stage == Stage.GENERATE;
            boolean rewrite = stage == Stage.REWRITE;
            if (abandoned.runHint().equals(e.runHint()) && generator
                    || splitOff.runHint().equals(e.runHint()) && (generator || rewrite)) {
                continue;
            }
            // no run header: linked by content
            lines.add(Json.write(new CallEvent(e.schema(), e.eventId(), e.pipeline(), null, e.startedAt(), e.endedAt(),
                    e.request(), e.response(), e.source())));
        }
        Path calls = dir.resolve("calls.jsonl");
        Files.write(calls, lines);

        Path runsFile = dir.resolve("runs.jsonl");
        Path featuresFile = dir.resolve("features.jsonl");
        Path verdictsFile = dir.resolve("verdicts.jsonl");
        try (LlmTestServer server = LlmTestServer.start()) {
            ChecksSettings checks = ChecksSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "openai",
                    LlmSettings.BASE_URL, server.baseUrl(), LlmSettings.MODEL, "gpt-test-mini",
                    LlmSettings.API_KEY, "sk-test", LlmSettings.BACKOFF_MS, "10", LlmSettings.MAX_BACKOFF_MS, "100"));
            ReplayCommand.replay(List.of(calls), List.of(), new ReplayCommand.Outputs(runsFile,
                    dir.resolve("dlq.jsonl"), featuresFile, verdictsFile, JobSettings.defaults().withChecks(checks)),
                    2, TopologySettings.DEFAULTS);

            List<Run> runs = Files.readAllLines(runsFile).stream().map(l -> Json.read(l, Run.class)).toList();
            List<Run> incomplete = runs.stream().filter(Run::incomplete).toList();
            assertThat(runs).hasSize(10);
            assertThat(incomplete).hasSize(2);
            assertThat(incomplete).filteredOn(IncompleteRuns::orphan).singleElement()
                    .satisfies(r -> assertThat(r.question()).isNotEqualTo(splitOff.question()));
            assertThat(incomplete).filteredOn(r -> !IncompleteRuns.orphan(r)).singleElement()
                    .satisfies(r -> assertThat(r.question()).isEqualTo(abandoned.question()));

            Set<String> complete = runs.stream().filter(r -> !r.incomplete()).map(Run::runId)
                    .collect(Collectors.toSet());
            List<RunFeatures> features = Files.readAllLines(featuresFile).stream()
                    .map(l -> Json.read(l, RunFeatures.class)).toList();
            assertThat(features).extracting(RunFeatures::runId).containsExactlyInAnyOrderElementsOf(complete);
            assertThat(Files.readAllLines(verdictsFile).stream().map(l -> Json.read(l, Verdict.class).runId()))
                    .containsExactlyInAnyOrderElementsOf(complete);
            // every request the endpoint got was for a complete run: none spoke of the abandoned question
            int llmCalls = features.stream().mapToInt(f -> f.llm().calls()).sum();
            assertThat(llmCalls).isPositive();
            assertThat(server.requests()).isEqualTo(llmCalls);
            assertThat(server.received()).noneSatisfy(r -> assertThat(r.user()).contains(abandoned.question()));
        }

        assertThat(counter("sampling.runs_incomplete_not_checked")).isEqualTo(2);
        assertThat(counter("assembly.incomplete_runs")).isEqualTo(2);
        assertThat(counter("assembly.orphan_runs")).isEqualTo(1);
        assertThat(counter("assembly.orphan_calls")).isEqualTo(3); // the split-off run's embedding, retrieval, reranking
    }

    /** A counter of the raglog group, summed over subtasks. */
    private static long counter(String name) {
        long sum = 0;
        String leaf = name.substring(name.lastIndexOf('.') + 1);
        for (Map.Entry<MetricGroup, Map<String, Metric>> group : METRICS.getMetricsByGroup().entrySet()) {
            Metric metric = group.getValue().get(leaf);
            if (metric instanceof Counter c && group.getKey().getMetricIdentifier(leaf).endsWith("raglog." + name)) {
                sum += c.getCount();
            }
        }
        return sum;
    }
}

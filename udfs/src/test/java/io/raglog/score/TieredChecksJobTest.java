package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.checks.RunBuilder;
import io.raglog.checks.RunChecked;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.checkstage.ChecksStage;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.llm.LlmCheck;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.LlmTestServer;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.score.flink.BundleLocation;
import io.raglog.score.flink.ScoreRunsFunction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiered mode through the job's own checks and scoring operators on a real MiniCluster, against a local
 * OpenAI-compatible endpoint. The bundle's gate is fixed by hand so the test knows which runs it skips: a run with a
 * rewrite is never clear to it (the rewrite stage's bounds make it always "in between"), every other stage always
 * clearly healthy. So runs without a rewrite skip the LLM, runs with one are checked.
 */
class TieredChecksJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static Path gatedBundle(Path dir) {
        Map<Stage, TierGate.Bounds> bounds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            if (stage == Stage.ASSEMBLE) {
                continue; // a bundle trained before context assembly: it neither scores nor gates it
            }
            bounds.put(stage, stage == Stage.REWRITE ? new TierGate.Bounds(0.0, 1.0) : new TierGate.Bounds(1.0, 1.0));
        }
        List<String> cheap = List.of(FeatureList.REWRITE_LOST_SHARE, FeatureList.EMBED_LOST_SHARE,
                FeatureList.RETRIEVE_TOP_SIM, FeatureList.RERANK_DROPPED_COUNT, FeatureList.GENERATE_CONTEXT_COUNT);
        try (ModelBundle bundle = FixedBundles.withGate(FeatureList.VERSION, FeatureList.RETRIEVE_TOP_SIM, cheap,
                FixedBundles.thresholds(0.99, 0.99, 0.99, 0.99, 0.99), bounds)) {
            bundle.save(dir);
        }
        return dir;
    }

    private static ChecksSettings tiered(LlmTestServer server) {
        return ChecksSettings.fromEnv(new HashMap<>(Map.of(LlmSettings.PROVIDER, "openai",
                LlmSettings.BASE_URL, server.baseUrl(), LlmSettings.MODEL, "test-model", LlmSettings.API_KEY, "sk-x",
                LlmSettings.TIMEOUT_MS, "5000", LlmSettings.MODE, "tiered")));
    }

    @Test
    void shouldMakeNoLlmCallForRunsTheGateSkipsAndStillGiveThemVerdicts(@TempDir Path dir) throws Exception {
        BundleLocation bundle = BundleLocation.directory(gatedBundle(dir));
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            RunBuilder b = RunBuilder.healthy().runId("run-" + i);
            runs.add((i % 2 == 0 ? b.noRewrite() : b).build());
        }
        List<Verdict> verdicts = new ArrayList<>();
        try (LlmTestServer server = LlmTestServer.start()) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            DataStream<Run> source = env.fromData(runs, JacksonTypeInfo.of(Run.class));
            DataStream<Verdict> out = ChecksStage.checked(source, tiered(server), bundle)
                    .map((RunChecked c) -> ScoringInput.of(c.run(), c.features()), JacksonTypeInfo.of(ScoringInput.class))
                    .connect(ScoreRunsFunction.noOverrides(source).broadcast(ScoreRunsFunction.OVERRIDES))
                    .process(new ScoreRunsFunction(bundle), JacksonTypeInfo.of(Verdict.class));
            try (CloseableIterator<Verdict> it = out.executeAndCollect("tiered-test")) {
                it.forEachRemaining(verdicts::add);
            }

            assertThat(verdicts).extracting(Verdict::runId).hasSize(12).doesNotHaveDuplicates();
            int checkedCalls = 0;
            for (Verdict v : verdicts) {
                boolean hasRewrite = Integer.parseInt(v.runId().substring(4)) % 2 == 1;
                if (hasRewrite) {
                    assertThat(v.llm().tier()).isEqualTo(LlmUsage.TIER_CHECKED);
                    Run run = runs.stream().filter(r -> r.runId().equals(v.runId())).findFirst().orElseThrow();
                    assertThat(v.llm().calls()).isEqualTo(LlmCheck.forRun(run, false).size());
                    checkedCalls += v.llm().calls();
                } else {
                    assertThat(v.llm().tier()).isEqualTo(LlmUsage.TIER_SKIPPED);
                    assertThat(v.llm().calls()).isZero();
                    assertThat(v.llm().inputTokens()).isZero();
                    assertThat(v.llm().degraded()).isFalse();
                    // decided by the gate: every present stage clearly healthy, nothing flagged
                    assertThat(v.flaggedStages()).isEmpty();
                    assertThat(v.stages().retrieve().threshold()).isEqualTo(1.0);
                }
            }
            assertThat(checkedCalls).isPositive();
            assertThat(server.requests()).as("the endpoint saw the checked runs' calls and nothing else")
                    .isEqualTo(checkedCalls);
        }
    }
}

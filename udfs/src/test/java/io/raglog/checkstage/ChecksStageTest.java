package io.raglog.checkstage;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.FeatureList;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.checks.RunBuilder;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.llm.LlmCheck;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.LlmTestServer;
import io.raglog.llm.OfflineJudge;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The checks building block on a real Flink MiniCluster, offline and against a local OpenAI-compatible endpoint. */
class ChecksStageTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /** When each run left the source side of the chain, in nanos: shows whether the source was held back. */
    static final Queue<Long> SOURCE_TIMES = new ConcurrentLinkedQueue<>();

    private static List<Run> variedRuns(int count) {
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RunBuilder b = RunBuilder.healthy().runId("run-" + i);
            switch (i % 6) {
                case 1 -> b.noRewrite();
                case 2 -> b.noRerank();
                case 3 -> b.reranked(RunBuilder.REVENUE_2022, RunBuilder.WEATHER).answer("Revenue grew 12% in 2022.");
                case 4 -> b.rewrites("Acme Corp operating cash flow").reconstructed();
                case 5 -> b.answer("Acme Corp's operating cash flow in 2023 was $5.7 billion.");
                default -> { }
            }
            runs.add(b.build());
        }
        return runs;
    }

    private static List<RunFeatures> runThroughChecks(List<Run> runs, ChecksSettings settings) throws Exception {
        SOURCE_TIMES.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        DataStream<Run> source = env.fromData(runs, JacksonTypeInfo.of(Run.class))
                .map(new RecordTime()).returns(JacksonTypeInfo.of(Run.class)).name("probe");
        List<RunFeatures> out = new ArrayList<>();
        try (CloseableIterator<RunFeatures> it = ChecksStage.apply(source, settings).executeAndCollect("checks-test")) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    static final class RecordTime implements MapFunction<Run, Run> {
        @Override
        public Run map(Run run) {
            SOURCE_TIMES.add(System.nanoTime());
            return run;
        }
    }

    private static ChecksSettings endpoint(LlmTestServer server, String... overrides) {
        Map<String, String> env = new HashMap<>(Map.of(LlmSettings.PROVIDER, "openai",
                LlmSettings.BASE_URL, server.baseUrl(), LlmSettings.MODEL, "test-model", LlmSettings.API_KEY, "sk-x",
                LlmSettings.BACKOFF_MS, "10", LlmSettings.MAX_BACKOFF_MS, "200", LlmSettings.TIMEOUT_MS, "5000"));
        for (int i = 0; i < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return ChecksSettings.fromEnv(env);
    }

    @Test
    void shouldGiveEveryRunItsFullFeatureVectorFromTheOfflineJudge() throws Exception {
        List<Run> runs = variedRuns(24);
        List<RunFeatures> out = runThroughChecks(runs, ChecksSettings.defaults());

        Map<String, Run> byId = runs.stream().collect(Collectors.toMap(Run::runId, Function.identity()));
        assertThat(out).extracting(RunFeatures::runId).containsExactlyInAnyOrderElementsOf(byId.keySet());
        for (RunFeatures f : out) {
            Run run = byId.get(f.runId());
            assertThat(f.schema()).isEqualTo(RunFeatures.SCHEMA_V1);
            assertThat(f.featureListVersion()).isEqualTo(FeatureList.VERSION);
            assertThat(f.features().keySet()).containsExactlyElementsOf(FeatureList.names());
            assertThat(f.llm().judge()).isEqualTo(OfflineJudge.ID);
            assertThat(f.llm().degraded()).isFalse();
            assertThat(f.llm().calls()).isEqualTo(LlmCheck.forRun(run, false).size());
            assertThat(f.feature(FeatureList.RETRIEVE_TOP_SIM)).isNotNull();
            assertThat(f.feature(FeatureList.LLM_RETRIEVE_FAULT)).isNotNull();
            assertThat(f.feature(FeatureList.REWRITE_LOST_SHARE) == null).isEqualTo(!run.stages().rewrite().present());
            assertThat(f.feature(FeatureList.LLM_RERANK_FAULT) == null).isEqualTo(!run.stages().rerank().present());
            assertThat(f.evidenceFlow()).isNotNull();
        }
        RunFeatures dropped = out.stream().filter(f -> f.runId().equals("run-3")).findFirst().orElseThrow();
        assertThat(dropped.evidenceFlow().anyOnlyInDropped()).isTrue();
        assertThat(dropped.findings()).extracting(fi -> fi.text())
                .contains("the reranker dropped every passage that mentions the date '2023'");
    }

    @Test
    void shouldGetItsLlmFeaturesFromAnOpenAiCompatibleEndpoint() throws Exception {
        try (LlmTestServer server = LlmTestServer.start()) {
            List<Run> runs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                runs.add(RunBuilder.healthy().runId("run-" + i).build());
            }
            List<RunFeatures> out = runThroughChecks(runs, endpoint(server));
            assertThat(out).hasSize(10);
            assertThat(server.requests()).isEqualTo(50);
            for (RunFeatures f : out) {
                assertThat(f.llm().judge()).isEqualTo("openai:test-model");
                assertThat(f.llm().calls()).isEqualTo(5);
                assertThat(f.llm().inputTokens()).isEqualTo(500);
                assertThat(f.llm().degraded()).isFalse();
                // assembly's is the evidence flow read against the assembly, which these runs do not show
                FeatureList.all().stream().filter(d -> d.kind() == FeatureList.Kind.LLM)
                        .filter(d -> d.stage() != io.raglog.schemas.Stage.ASSEMBLE)
                        .forEach(d -> assertThat(f.feature(d.name())).as(d.name()).isNotNull());
            }
        }
    }

    @Test
    void shouldComputeTheVectorFeaturesBesideTheLlmCallsAsTheyAreComputedAfterTheRules() throws Exception {
        List<Run> runs = variedRuns(12);
        Map<String, Map<String, Double>> inSequence = new HashMap<>();
        try (MiniLmEmbedder model = new MiniLmEmbedder()) {
            CheapChecks cheap = new CheapChecks(new CachedEmbedder(model, 1000));
            runs.forEach(r -> inSequence.put(r.runId(), cheap.apply(r).features()));
        }
        try (LlmTestServer server = LlmTestServer.start()) {
            List<RunFeatures> out = runThroughChecks(runs, endpoint(server));
            assertThat(out).hasSize(runs.size());
            for (RunFeatures f : out) {
                Map<String, Double> expected = inSequence.get(f.runId());
                assertThat(expected).containsKey(FeatureList.RETRIEVE_TOP_SIM);
                expected.forEach((name, value) -> assertThat(f.feature(name)).as(f.runId() + " " + name)
                        .isEqualTo(value));
            }
        }
    }

    @Test
    void shouldHoldBackTheSourceWhenTheEndpointIsSlowAndLoseNothing() throws Exception {
        int runs = 16;
        int capacity = 2;
        long latencyMs = 200;
        try (LlmTestServer server = LlmTestServer.start().latency(Duration.ofMillis(latencyMs))) {
            List<Run> input = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                input.add(RunBuilder.healthy().runId("run-" + i).build());
            }
            List<RunFeatures> out = runThroughChecks(input,
                    endpoint(server, LlmSettings.CAPACITY, String.valueOf(capacity)));

            assertThat(out).extracting(RunFeatures::runId).hasSize(runs).doesNotHaveDuplicates();
            assertThat(out).allSatisfy(f -> assertThat(f.llm().degraded()).isFalse());
            assertThat(server.peakInFlight()).as("never more than capacity x 5 calls").isLessThanOrEqualTo(capacity * 5);
            List<Long> times = new ArrayList<>(SOURCE_TIMES);
            long spanMs = (times.get(times.size() - 1) - times.get(0)) / 1_000_000;
            // Unbounded buffering would let all 16 through at once; bounded, the source waits for the endpoint.
            long floorMs = (runs - capacity - 1) / capacity * latencyMs / 2;
            assertThat(spanMs).isGreaterThanOrEqualTo(floorMs);
        }
    }

    @Test
    void shouldEmitEveryRunDegradedWhenTheEndpointStaysDownAfterBoundedRetries() throws Exception {
        try (LlmTestServer server = LlmTestServer.start()) {
            server.always(req -> true, new LlmTestServer.Status(503, null, null));
            List<Run> input = List.of(RunBuilder.healthy().runId("a").build(), RunBuilder.healthy().runId("b").build(),
                    RunBuilder.healthy().runId("c").build());
            // Capacity 1 keeps the source open while a run is retried: Flink turns run retries off at end of input.
            List<RunFeatures> out = runThroughChecks(input, endpoint(server, LlmSettings.CAPACITY, "1",
                    LlmSettings.RETRIES, "1", LlmSettings.RUN_RETRIES, "1"));

            assertThat(out).extracting(RunFeatures::runId).containsExactlyInAnyOrder("a", "b", "c");
            for (RunFeatures f : out) {
                assertThat(f.llm().degraded()).isTrue();
                assertThat(f.llm().degradedChecks()).hasSize(5);
                assertThat(f.feature(FeatureList.LLM_REWRITE_FAULT)).isNull();
                assertThat(f.feature(FeatureList.REWRITE_LOST_SHARE)).as("cheap checks still there").isNotNull();
                assertThat(f.feature(FeatureList.RETRIEVE_TOP_SIM)).isNotNull();
            }
            // Per run: 5 checks x (1 call + 1 retry) = 10 calls, and once more when Flink's AsyncRetryStrategy retries
            // the run because every check failed.
            assertThat(server.requests()).as("runs were retried by Flink").isGreaterThan(3 * 10)
                    .as("and the retries are bounded").isLessThanOrEqualTo(3 * 10 * 2);
        }
    }
}

package io.raglog.sink.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.schemas.Json;
import io.raglog.testing.LogCapture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink against a real Elasticsearch node (forked JVM, real sockets) from real Flink jobs on a MiniCluster. One
 * node for the class; each test writes its own index, all under the raglog templates' patterns.
 */
class ElasticsearchSinkIntegrationTest {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .build());

    @TempDir
    static Path work;

    private static final AtomicInteger JOBS = new AtomicInteger();
    private static ElasticsearchProcess elasticsearch;
    private static NodeHttp node;

    @BeforeAll
    static void startElasticsearch() throws Exception {
        elasticsearch = ElasticsearchProcess.start(work.resolve("elasticsearch"));
        node = new NodeHttp(elasticsearch.url());
        IndexTemplates.installAll(connection(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopElasticsearch() {
        if (elasticsearch != null) {
            elasticsearch.close();
        }
    }

    @Test
    void shouldWriteEachRunOnceAndOverwriteItWhenTheSameRunsAreWrittenAgain() throws Exception {
        String index = "raglog-faults-replay";

        run(List.of(), env -> env.fromData(TestRun.runs(300, "first")).sinkTo(sinkInto(index).build()));
        assertThat(node.count(index)).isEqualTo(300);

        run(List.of(), env -> env.fromData(TestRun.runs(300, "replayed")).sinkTo(sinkInto(index).build()));
        assertThat(node.count(index)).isEqualTo(300);
        JsonNode run42 = node.get(index, "run-0042");
        assertThat(run42.path("_version").asLong()).isEqualTo(2);
        assertThat(run42.path("_source").path("answer").asText()).endsWith("(replayed)");
        assertThat(run42.path("_source").path("flagged_stages").get(0).asText()).isEqualTo("rewrite");
    }

    @Test
    void shouldLoseNothingAndBackPressureWhileElasticsearchIsDown() throws Exception {
        String index = "raglog-faults-outage";
        int total = 400;
        int beforeOutage = 150;
        int maxBatch = 20;
        int maxBuffered = 60;
        Gate.arm(beforeOutage);
        EnteredSink.COUNT.set(0);
        ElasticsearchSink<TestRun> sink = sinkInto(index)
                .setEmitter(EnteredSink.counting(ElasticsearchEmitter.json(index, r -> r.runId)))
                .setMaxBatchSize(maxBatch)
                .setMaxBufferedRequests(maxBuffered)
                .setMaxInFlightRequests(1)
                .build();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(TestRun.runs(total, "outage")).map(new Gate()).sinkTo(sink).disableChaining();
        String jobName = "elasticsearch outage";
        JobClient job = env.executeAsync(jobName);
        try {
            assertThat(Gate.reached.await(60, TimeUnit.SECONDS)).isTrue();
            Await.until(Duration.ofSeconds(30), "the first " + beforeOutage + " runs are indexed",
                    () -> node.count(index) == beforeOutage);

            elasticsearch.stop();
            Gate.release.countDown();
            Await.until(Duration.ofSeconds(30), "the sink has failed to reach Elasticsearch a few times",
                    () -> counter(jobName, "bulkRequestsFailed") >= 5);
            // The buffer and the one in-flight batch are full, so write() blocks: the rest wait upstream.
            assertThat(EnteredSink.COUNT.get()).isLessThanOrEqualTo(beforeOutage + maxBuffered + maxBatch + 1)
                    .isLessThan(total);

            elasticsearch.restart();
            job.getJobExecutionResult().get(2, TimeUnit.MINUTES);
        } finally {
            Gate.release.countDown();
            if (!elasticsearch.isRunning()) {
                elasticsearch.restart(); // the other tests need it
            }
            if (!job.getJobStatus().get().isTerminalState()) {
                job.cancel().get();
            }
        }

        assertThat(node.count(index)).isEqualTo(total);
        assertThat(EnteredSink.COUNT.get()).isEqualTo(total);
    }

    @Test
    void shouldKeepARefusedDocumentAsADeadLetterAndReportIt() throws Exception {
        String index = "raglog-faults-mapping";
        String deadLetters = "raglog-dead-letters-mapping";
        List<TestRun> runs = TestRun.runs(50, "mapping");
        TestRun bad = runs.get(7);
        bad.scoredAt = "yesterday"; // scored_at is a date in the raglog-faults template
        bad.question = "Which private account number did customer 4711 use?";

        String logs;
        String job;
        try (LogCapture capture = new LogCapture()) {
            job = run(List.of(), env -> env.fromData(runs).sinkTo(sinkInto(index)
                    .setFailureHandler(BulkFailureHandlers.deadLetterIndex(deadLetters)).build()));
            logs = capture.text();
        }

        assertThat(node.count(index)).isEqualTo(49);
        assertThat(node.count(deadLetters)).isEqualTo(1);
        JsonNode letter = node.get(deadLetters, "raglog-faults-mapping%2Frun-0007").path("_source");
        assertThat(letter.path("index").asText()).isEqualTo(index);
        assertThat(letter.path("doc_id").asText()).isEqualTo("run-0007");
        assertThat(letter.path("status").asInt()).isEqualTo(400);
        assertThat(letter.path("error_type").asText()).isEqualTo("mapper_parsing_exception");
        assertThat(letter.path("error_reason").asText()).contains("scored_at");
        assertThat(Json.MAPPER.readTree(letter.path("document").asText()).path("question").asText())
                .isEqualTo(bad.question);
        assertThat(counter(job, "documentsRejected")).isEqualTo(1);
        assertThat(logs).contains("Elasticsearch rejected index [raglog-faults-mapping] _id [run-0007]")
                .contains("mapper_parsing_exception")
                .doesNotContain("private account number");
    }

    @Test
    void shouldFailTheJobNamingTheRefusedDocumentWhenConfiguredToFail() {
        String index = "raglog-faults-strict";
        List<TestRun> runs = TestRun.runs(20, "strict");
        runs.get(3).scoredAt = "not a date";

        assertThatThrownBy(() -> run(List.of(), env -> env.fromData(runs).sinkTo(sinkInto(index)
                .setFailureHandler(BulkFailureHandlers.failJob()).build())))
                .satisfies(e -> {
                    Optional<ElasticsearchSinkException> cause =
                            ExceptionUtils.findThrowable(e, ElasticsearchSinkException.class);
                    assertThat(cause).isPresent();
                    assertThat(cause.get().getMessage())
                            .contains("Elasticsearch rejected index [raglog-faults-strict] _id [run-0003]")
                            .contains("400 mapper_parsing_exception");
                });
    }

    @Test
    void shouldNotDuplicateRunsReplayedAfterAJobFailure() throws Exception {
        String index = "raglog-faults-recovery";
        FailOnce.arm(elasticsearch.url(), index, 250, 200);
        Configuration restarts = new Configuration();
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));

        run(List.of(restarts), env -> {
            env.enableCheckpointing(100);
            env.fromData(TestRun.runs(300, "recovery")).map(new FailOnce()).sinkTo(sinkInto(index).build())
                    .disableChaining();
        });

        assertThat(FailOnce.failed.get()).isTrue();
        assertThat(node.count(index)).isEqualTo(300);
        long maxVersion = 0;
        for (JsonNode hit : node.searchWithVersions(index, 300).path("hits").path("hits")) {
            maxVersion = Math.max(maxVersion, hit.path("_version").asLong());
        }
        assertThat(maxVersion).as("some runs were written twice, overwriting").isGreaterThan(1);
    }

    @Test
    void shouldInstallTemplatesThatMapIdsAsKeywordsTextsAsTextAndInstantsAsDates() throws Exception {
        IndexTemplates.installAll(connection(), Duration.ofSeconds(10)); // again: idempotent
        node.json("PUT", "/raglog-faults/_doc/run-1?refresh=true", "{\"schema\":\"raglog.verdict/v1\","
                + "\"run_id\":\"run-1\",\"pipeline\":\"support-bot\",\"flagged_stages\":[\"retrieve\"],"
                + "\"question\":\"What was Acme's cash flow in 2023?\",\"answer\":\"$120M\","
                + "\"scored_at\":\"2026-11-29T10:00:00Z\",\"started_at\":\"2026-11-29T09:59:58Z\","
                + "\"model_bundle\":\"bundle-2026-11\",\"judge\":\"offline\","
                + "\"stages\":{\"retrieve\":{\"present\":true,\"fault_probability\":0.81,\"threshold\":0.5,"
                + "\"flagged\":true,\"evidence\":[\"no passage mentions 2023\"],"
                + "\"repair_hint\":\"add a date filter to the retriever\"}},"
                + "\"llm\":{\"calls\":5,\"tokens\":4200,\"cost_usd\":0.005,\"degraded\":false}}");
        node.json("PUT", "/raglog-fault-rates/_doc/support-bot%7Cretrieve%7C2026-11-29T10:00:00Z?refresh=true",
                "{\"pipeline\":\"support-bot\",\"stage\":\"retrieve\",\"window_start\":\"2026-11-29T10:00:00Z\","
                        + "\"window_end\":\"2026-11-29T10:05:00Z\",\"runs_checked\":120,\"runs_flagged\":9,"
                        + "\"rate\":0.075}");

        JsonNode faults = node.json("GET", "/raglog-faults/_mapping", null)
                .path("raglog-faults").path("mappings").path("properties");
        assertThat(type(faults, "run_id")).isEqualTo("keyword");
        assertThat(type(faults, "pipeline")).isEqualTo("keyword");
        assertThat(type(faults, "flagged_stages")).isEqualTo("keyword");
        assertThat(type(faults, "model_bundle")).isEqualTo("keyword");
        assertThat(type(faults, "judge")).isEqualTo("keyword");
        assertThat(type(faults, "question")).isEqualTo("text");
        assertThat(type(faults, "answer")).isEqualTo("text");
        assertThat(type(faults, "scored_at")).isEqualTo("date");
        assertThat(type(faults, "started_at")).isEqualTo("date");
        JsonNode retrieve = faults.path("stages").path("properties").path("retrieve").path("properties");
        assertThat(type(retrieve, "fault_probability")).isEqualTo("float");
        assertThat(type(retrieve, "threshold")).isEqualTo("float");
        assertThat(type(retrieve, "evidence")).isEqualTo("text");
        assertThat(type(retrieve, "repair_hint")).isEqualTo("text");
        assertThat(type(retrieve, "flagged")).isEqualTo("boolean");
        assertThat(type(faults.path("llm").path("properties"), "tokens")).isEqualTo("long");

        JsonNode rates = node.json("GET", "/raglog-fault-rates/_mapping", null)
                .path("raglog-fault-rates").path("mappings").path("properties");
        assertThat(type(rates, "pipeline")).isEqualTo("keyword");
        assertThat(type(rates, "stage")).isEqualTo("keyword");
        assertThat(type(rates, "window_start")).isEqualTo("date");
        assertThat(type(rates, "window_end")).isEqualTo("date");
        assertThat(type(rates, "runs_checked")).isEqualTo("long");
        assertThat(type(rates, "runs_flagged")).isEqualTo("long");
        assertThat(type(rates, "rate")).isEqualTo("float");

        JsonNode search = node.json("POST", "/raglog-faults/_search",
                "{\"query\":{\"bool\":{\"filter\":[{\"term\":{\"flagged_stages\":\"retrieve\"}},"
                        + "{\"range\":{\"scored_at\":{\"gte\":\"2026-11-29T00:00:00Z\"}}}],"
                        + "\"must\":[{\"match\":{\"stages.retrieve.evidence\":\"passage 2023\"}}]}}}");
        assertThat(search.path("hits").path("total").path("value").asLong()).isEqualTo(1);
    }

    private static String type(JsonNode properties, String field) {
        return properties.path(field).path("type").asText("(unmapped)");
    }

    private static ElasticsearchSink.Builder<TestRun> sinkInto(String index) {
        return ElasticsearchSink.<TestRun>builder()
                .setConnection(connection())
                .setEmitter(ElasticsearchEmitter.json(index, r -> r.runId))
                .setMaxBatchSize(50)
                .setMaxTimeInBuffer(Duration.ofMillis(100))
                .setBackoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(300)));
    }

    private interface Topology {
        void wire(StreamExecutionEnvironment env);
    }

    /** Runs a job to its end; returns its name, unique, for {@link #counter}. */
    private static String run(List<Configuration> settings, Topology topology) throws Exception {
        Configuration conf = new Configuration();
        settings.forEach(conf::addAll);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        topology.wire(env);
        String name = "elasticsearch sink test " + JOBS.incrementAndGet();
        env.execute(name);
        return name;
    }

    /** A sink counter summed over the job's subtasks; job names are unique per test, metric scopes carry them. */
    private static long counter(String jobName, String name) {
        long sum = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> group : METRICS.getMetricsByGroup().entrySet()) {
            Metric metric = group.getValue().get(name);
            if (metric instanceof Counter && group.getKey().getMetricIdentifier(name).contains(jobName)
                    && group.getKey().getMetricIdentifier(name).endsWith("elasticsearch." + name)) {
                sum += ((Counter) metric).getCount();
            }
        }
        return sum;
    }

    /** Lets records through up to a point, then holds until the test says go on. */
    static final class Gate implements MapFunction<TestRun, TestRun> {
        private static final long serialVersionUID = 1L;
        static volatile CountDownLatch reached;
        static volatile CountDownLatch release;
        static volatile int holdAt;
        private int seen;

        static void arm(int at) {
            holdAt = at;
            reached = new CountDownLatch(1);
            release = new CountDownLatch(1);
        }

        @Override
        public TestRun map(TestRun run) throws Exception {
            if (seen++ == holdAt) {
                reached.countDown();
                release.await(2, TimeUnit.MINUTES);
            }
            return run;
        }
    }

    /** Counts the records that made it into the sink's writer (past its back-pressure). */
    static final class EnteredSink {
        static final AtomicInteger COUNT = new AtomicInteger();

        static ElasticsearchEmitter<TestRun> counting(ElasticsearchEmitter<TestRun> emitter) {
            return run -> {
                COUNT.incrementAndGet();
                return emitter.emit(run);
            };
        }
    }

    /**
     * Fails the job once, at a given record or soon after, once Elasticsearch holds some of the runs and one the job is
     * certain to write again after the restart. That is a run this subtask emitted after its latest snapshot: the job
     * restarts from a checkpoint no later than that snapshot (none can complete while this subtask holds), so the run
     * is replayed, and once it is in the index the replay overwrites it. Waiting for a count instead left it to timing
     * whether any indexed run lay past the restored checkpoint.
     */
    static final class FailOnce implements MapFunction<TestRun, TestRun>, CheckpointedFunction {
        private static final long serialVersionUID = 1L;
        static final AtomicBoolean failed = new AtomicBoolean();
        /** Set by the one subtask that goes on to fail the job, so the other cannot fail it a second time. */
        static final AtomicBoolean failing = new AtomicBoolean();
        static volatile String url;
        static volatile String index;
        static volatile int failAt;
        static volatile int afterIndexed;
        /** Over all subtasks: the job runs with parallelism 2. */
        static final AtomicInteger seen = new AtomicInteger();
        /** The last run this subtask emitted since its latest snapshot; null right after a snapshot. */
        private transient String emittedSinceSnapshot;

        static void arm(String nodeUrl, String indexName, int at, int indexed) {
            failed.set(false);
            failing.set(false);
            seen.set(0);
            url = nodeUrl;
            index = indexName;
            failAt = at;
            afterIndexed = indexed;
        }

        @Override
        public TestRun map(TestRun run) throws Exception {
            if (seen.incrementAndGet() >= failAt && emittedSinceSnapshot != null
                    && failing.compareAndSet(false, true)) {
                String replayed = emittedSinceSnapshot;
                NodeHttp node = new NodeHttp(url);
                Await.until(Duration.ofSeconds(30), afterIndexed + " runs indexed, " + replayed + " among them",
                        () -> node.count(index) >= afterIndexed
                                && node.send("GET", "/" + index + "/_doc/" + replayed, null).statusCode() == 200);
                failed.set(true);
                throw new IllegalStateException("injected failure after " + failAt + " runs, " + replayed
                        + " indexed since the last snapshot");
            }
            emittedSinceSnapshot = run.runId;
            return run;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            emittedSinceSnapshot = null;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }

    private static ElasticsearchConnection connection() {
        return ElasticsearchConnection.builder().setHosts(elasticsearch.url()).build();
    }
}

package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.job.ElasticsearchOutputs;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.Topics;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.feedback.FeedbackSettings;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.EmbeddingPlan;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The job between real Kafka topics on a real KRaft broker, on a Flink MiniCluster with RocksDB and checkpoints. */
class KafkaPipelineTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = EmbeddedKafka.start(Path.of(System.getProperty("java.io.tmpdir"), "kafka-" + System.nanoTime()));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka.close();
    }

    static StreamExecutionEnvironment environment(Path checkpoints) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "rocksdb");
        conf.setString("execution.checkpointing.incremental", "true");
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    private static Topics freshTopics(String name) throws Exception {
        Topics topics = Topics.prefixed(name);
        kafka.createTopics(topics.all(), 2);
        return topics;
    }

    private static void send(String topic, List<byte[]> values) {
        send(topic, values, null);
    }

    /** @param timestamp the records' Kafka timestamp (their event time), null for the producer's clock */
    private static void send(String topic, List<byte[]> values, Long timestamp) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            values.forEach(v -> producer.send(new ProducerRecord<>(topic, null, timestamp, null, v)));
        }
    }

    /** Simulated traffic produced the way the proxy and the Collector write it; returns the ground truth. */
    private static List<Label> simulate(Topics topics, int runs, long seed) throws Exception {
        return simulate(topics, SimulatorOptions.of("all", runs, seed));
    }

    private static List<Label> simulate(Topics topics, SimulatorOptions options) throws Exception {
        String labelsTopic = topics.runs() + ".labels";
        kafka.createTopics(List.of(labelsTopic), 1);
        try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                new KafkaSink.Topics(topics.calls(), topics.otlp(), labelsTopic))) {
            new Simulator(options).run(sink);
        }
        return Demo.read(kafka.bootstrapServers(), labelsTopic, Label.class);
    }

    @Test
    void shouldAssembleAThousandInterleavedRunsIntoAThousandRuns() throws Exception {
        Topics topics = freshTopics("thousand");
        List<Label> labels = simulate(topics, 1000, 3);

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-thousand"));
        // checks are exercised elsewhere; here every run is assembled and counted, and only the always-check ones
        // (HTTP errors) are scored
        JobSettings settings = JobSettings.defaults().withSampling(new SamplingPolicy(0.0, Map.of()));
        new KafkaConnection(kafka.bootstrapServers(), topics, "thousand", true, DeliveryGuarantee.EXACTLY_ONCE,
                new Properties()).wire(env, settings);
        env.execute("thousand runs");

        List<Run> runs = Demo.read(kafka.bootstrapServers(), topics.runs(), Run.class);
        Map<String, Run> byId = new HashMap<>();
        runs.forEach(r -> byId.put(r.runId(), r));
        assertThat(runs).hasSize(1000);
        assertThat(byId).hasSize(1000);
        // a profile's stages: a label is null where the profile has no such stage, and also where a stage is
        // present but unlabeled (retrieval for an unanswerable question)
        Map<String, java.util.Set<Stage>> profileStages = SimulatorLabels.stagesByProfile(labels);
        for (Label label : labels) {
            Run run = byId.get(label.runId());
            assertThat(run).as("run of label %s (%s)", label.runId(), label.profile()).isNotNull();
            assertThat(run.incomplete()).isFalse();
            assertThat(run.question()).isEqualTo(label.question());
            assertThat(run.stages().generate().answer()).isEqualTo(label.answer());
            for (Stage stage : Stage.values()) {
                assertThat(run.has(stage)).as("%s of %s", stage, label.profile())
                        .isEqualTo(profileStages.get(label.profile()).contains(stage));
            }
        }
        assertThat(Demo.count(kafka.bootstrapServers(), topics.deadLetters())).isZero();

        long presentStages = runs.stream().mapToLong(r -> java.util.Arrays.stream(Stage.values()).filter(r::has).count())
                .sum();
        List<FaultRate> all = Demo.faultRates(kafka.bootstrapServers(), topics.faultRates());
        // the stages' and knowledge gaps' series; the embedding check's and the users' count other things
        List<FaultRate> rates = all.stream().filter(r -> !r.stage().equals(FaultRate.EMBEDDING_MISMATCH)
                && !r.stage().equals(FaultRate.USER_FEEDBACK_NEGATIVE)).toList();
        // every run also counts once in its pipeline's knowledge_gap series
        assertThat(rates.stream().mapToLong(FaultRate::runsSeen).sum()).isEqualTo(presentStages + runs.size());
        List<Verdict> verdicts = Demo.read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
        assertThat(verdicts).allSatisfy(v -> assertThat(byId.get(v.runId()).httpErrors()).isNotEmpty());
        assertThat(rates.stream().mapToLong(FaultRate::runsChecked).sum())
                .isEqualTo(verdicts.stream().mapToLong(v -> java.util.Arrays.stream(Stage.values())
                        .filter(s -> v.stages().get(s).present()).count()).sum() + verdicts.size());
        // the embedding check sees every run with an embed stage, sampled or not; this traffic has no mismatch
        List<FaultRate> embedding = all.stream().filter(r -> r.stage().equals(FaultRate.EMBEDDING_MISMATCH)).toList();
        long embedded = runs.stream().filter(r -> r.has(Stage.EMBED)).count();
        assertThat(embedding.stream().mapToLong(FaultRate::runsChecked).sum()).isEqualTo(embedded);
        assertThat(embedding.stream().mapToLong(FaultRate::runsFlagged).sum()).isZero();
    }

    @Test
    void shouldFlagRunsQueryingAnIndexBuiltWithAnotherModelAndWriteTheDriftTopic() throws Exception {
        Topics topics = freshTopics("drift");
        List<Label> labels = simulate(topics, SimulatorOptions.of("elastic-voyage-responses", 40, 13).withIndexEvery(5)
                .withEmbeddingPlan(EmbeddingPlan.none().withIndex("search-answers:text-embedding-ada-002")));

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-drift"));
        new KafkaConnection(kafka.bootstrapServers(), topics, "drift", true, DeliveryGuarantee.EXACTLY_ONCE,
                new Properties()).wire(env, JobSettings.defaults());
        env.execute("embedding drift");

        List<EmbeddingDrift> drift = Demo.read(kafka.bootstrapServers(), topics.drift(), EmbeddingDrift.class);
        assertThat(drift).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(EmbeddingDrift.INDEX_MISMATCH);
            assertThat(d.pipeline()).isEqualTo("search-answers");
            assertThat(d.before().model()).isEqualTo("text-embedding-ada-002");
            assertThat(d.after().model()).isEqualTo("text-embedding-3-small");
        });
        // the first index-building batch comes after the pipeline's fifth run: the runs after it are flagged, but for
        // the few that reach the drift operator before the batch's calls (runs are judged as they arrive)
        List<Verdict> verdicts = Demo.read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
        List<Verdict> embedFlagged = verdicts.stream().filter(v -> v.stages().embed().flagged()
                && v.stages().embed().repairHint().startsWith("Re-embed the index")).toList();
        assertThat(embedFlagged).hasSizeGreaterThanOrEqualTo(labels.size() - 10);
        assertThat(embedFlagged).allSatisfy(v -> assertThat(v.stages().embed().evidence().get(0))
                .contains("text-embedding-ada-002").contains("text-embedding-3-small"));
        // the pipeline's embedding_mismatch series counts exactly the runs flagged for the mismatch, out of all
        List<FaultRate> series = Demo.faultRates(kafka.bootstrapServers(), topics.faultRates()).stream()
                .filter(r -> r.stage().equals(FaultRate.EMBEDDING_MISMATCH)).toList();
        assertThat(series.stream().mapToLong(FaultRate::runsFlagged).sum()).isEqualTo(embedFlagged.size());
        assertThat(series.stream().mapToLong(FaultRate::runsChecked).sum()).isEqualTo(verdicts.size());
    }

    @Test
    void shouldPutExactlyTheFlaggedRunsInTheDebuggingQueue() throws Exception {
        Topics topics = freshTopics("queue");
        simulate(topics, 80, 5);

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-queue"));
        try (ElasticsearchProcess es = ElasticsearchProcess.start(
                Path.of(System.getProperty("java.io.tmpdir"), "es-queue-" + System.nanoTime()))) {
            KafkaConnection queue = new KafkaConnection(kafka.bootstrapServers(), topics, "queue", true,
                    DeliveryGuarantee.EXACTLY_ONCE, new Properties());
            JobSettings settings = JobSettings.defaults();
            RaglogPipeline.Sinks sinks = queue.sinks()
                    .and(ElasticsearchOutputs.installed(connection(es), "queue-faults", "queue-fault-rates"));
            RaglogPipeline.wire(queue.sources(env, settings), sinks, settings);
            env.execute("debugging queue");
            assertIndexHoldsExactly(es, "queue-faults",
                    Demo.read(kafka.bootstrapServers(), topics.faults(), Verdict.class).stream().map(Verdict::runId)
                            .toList());
        }

        List<Verdict> verdicts = Demo.read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
        List<Verdict> faults = Demo.read(kafka.bootstrapServers(), topics.faults(), Verdict.class);
        assertThat(verdicts).hasSize(80);
        assertThat(verdicts).extracting(Verdict::runId).doesNotHaveDuplicates();
        assertEvaluationEventsOf(verdicts, Demo.readAll(kafka.bootstrapServers(), topics.evaluations()));
        assertThat(faults).extracting(Verdict::runId)
                .containsExactlyInAnyOrderElementsOf(verdicts.stream().filter(Verdict::queued).map(Verdict::runId)
                        .toList());
        assertThat(faults).isNotEmpty().allSatisfy(v -> {
            assertThat(v.queueReasons()).isNotEmpty();
            if (v.knowledgeGap().flagged()) {
                assertThat(v.knowledgeGap().repairHint()).startsWith("Add content about");
            }
            for (Stage s : v.flaggedStages()) {
                assertThat(v.stages().get(s).evidence()).isNotEmpty();
                assertThat(v.stages().get(s).repairHint()).isNotBlank();
            }
        });

        List<FaultRate> rates = Demo.faultRates(kafka.bootstrapServers(), topics.faultRates());
        for (Stage stage : Stage.values()) {
            long flagged = verdicts.stream().filter(v -> v.stages().get(stage).flagged()).count();
            long checked = verdicts.stream().filter(v -> v.stages().get(stage).present()).count();
            assertThat(rates.stream().filter(r -> r.stage().equals(stage.id())).mapToLong(FaultRate::runsFlagged)
                    .sum()).as("flagged %s", stage).isEqualTo(flagged);
            assertThat(rates.stream().filter(r -> r.stage().equals(stage.id())).mapToLong(FaultRate::runsChecked)
                    .sum()).as("checked %s", stage).isEqualTo(checked);
        }
        assertThat(rates.stream().filter(r -> r.stage().equals(Verdict.KNOWLEDGE_GAP))
                .mapToLong(FaultRate::runsFlagged).sum()).as("knowledge gaps")
                .isEqualTo(verdicts.stream().filter(v -> v.knowledgeGap().flagged()).count());
        assertThat(rates).allSatisfy(r -> assertThat(r.rate())
                .isEqualTo(r.runsChecked() == 0 ? null : r.runsFlagged() / (double) r.runsChecked()));
    }

    /**
     * Feedback produced beside the calls: thumbs up and down by run id, re-asks found by their question, one record
     * written twice, one for a run never seen, one malformed. Each joins once; a run users disliked and raglog passed
     * reaches the queue with the reason user_feedback; the queue's documents carry their feedback; the negative share
     * is a fault-rate series.
     */
    @Test
    void shouldJoinFeedbackToVerdictsAndQueueRunsUsersDislikedButRaglogPassed() throws Exception {
        Topics topics = freshTopics("feedback");
        List<Label> labels = simulate(topics, 24, 11);
        Instant at = SimulatorOptions.DEFAULT_CLOCK_START.plus(Duration.ofMinutes(30));
        Map<String, Long> perQuestion = new HashMap<>();
        labels.forEach(l -> perQuestion.merge(l.pipeline() + "|" + l.question(), 1L, Long::sum));
        List<Feedback> given = new java.util.ArrayList<>();
        java.util.Set<String> disliked = new java.util.HashSet<>();
        for (int i = 0; i < labels.size(); i++) {
            Label l = labels.get(i);
            boolean uniqueQuestion = perQuestion.get(l.pipeline() + "|" + l.question()) == 1;
            Feedback f = i % 3 == 2 && uniqueQuestion
                    ? new Feedback(Feedback.SCHEMA_V1, "fb-" + i, l.pipeline(), FeedbackKind.RE_ASK, null, null, null,
                            null, at, null, null, null, l.question(), "re-ask-detector")
                    : new Feedback(Feedback.SCHEMA_V1, "fb-" + i, l.pipeline(), FeedbackKind.THUMBS,
                            i % 3 == 1 ? "up" : "down", null, null, null, at, l.runId(), null, null, null, "widget");
            given.add(f);
            if (f.negative()) {
                disliked.add(l.runId());
            }
        }
        Feedback unknownRun = new Feedback(Feedback.SCHEMA_V1, "fb-nobody", labels.get(0).pipeline(),
                FeedbackKind.THUMBS, "down", null, null, null, at, "run-never-seen", null, null, null, null);
        given.add(unknownRun);
        List<byte[]> records = new java.util.ArrayList<>(given.stream().map(Json::writeBytes).toList());
        records.add(Json.writeBytes(given.get(0))); // a producer's retry: the same record again
        records.add("{\"schema\":\"raglog.feedback/v1\",\"kind\":\"thumbs\"}".getBytes(StandardCharsets.UTF_8));
        send(topics.feedback(), records, at.toEpochMilli());

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-feedback"));
        try (ElasticsearchProcess es = ElasticsearchProcess.start(
                Path.of(System.getProperty("java.io.tmpdir"), "es-feedback-" + System.nanoTime()))) {
            KafkaConnection kafkaEnds = new KafkaConnection(kafka.bootstrapServers(), topics, "feedback", true,
                    DeliveryGuarantee.EXACTLY_ONCE, new Properties());
            // the simulated runs begin at the clock's start, feedback comes half an hour in: a window of an hour
            JobSettings settings = JobSettings.defaults().withFeedback(new FeedbackSettings(Duration.ofHours(24),
                    Duration.ofHours(24), Duration.ofHours(1)));
            RaglogPipeline.wire(kafkaEnds.sources(env, settings), kafkaEnds.sinks()
                    .and(ElasticsearchOutputs.installed(connection(es), "fb-faults", "fb-fault-rates")), settings);
            env.execute("feedback");

            List<Verdict> verdicts = Demo.read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
            List<Verdict> faults = Demo.read(kafka.bootstrapServers(), topics.faults(), Verdict.class);
            List<RunFeedback> joined = Demo.read(kafka.bootstrapServers(), topics.runFeedback(), RunFeedback.class);
            assertThat(verdicts).hasSize(labels.size());
            assertThat(joined).as("one record per feedback record, the retry joined once")
                    .extracting(r -> r.feedback().feedbackId())
                    .containsExactlyInAnyOrderElementsOf(given.stream().map(Feedback::feedbackId).toList());
            Map<String, String> runOfLabel = new HashMap<>();
            for (int i = 0; i < labels.size(); i++) {
                runOfLabel.put("fb-" + i, labels.get(i).runId());
            }
            assertThat(joined).allSatisfy(r -> {
                if (r.feedback().feedbackId().equals("fb-nobody")) {
                    assertThat(r.outcome()).isEqualTo(RunFeedback.NO_VERDICT);
                } else {
                    assertThat(r.outcome()).isEqualTo(RunFeedback.JOINED);
                    assertThat(r.runId()).isEqualTo(runOfLabel.get(r.feedback().feedbackId()));
                }
            });
            assertThat(joined).extracting(RunFeedback::matchedBy).contains("run_id", "question");

            java.util.Set<String> raglogQueued = new java.util.HashSet<>(
                    verdicts.stream().filter(Verdict::queued).map(Verdict::runId).toList());
            java.util.Set<String> dislikedButPassed = new java.util.HashSet<>(disliked);
            dislikedButPassed.removeAll(raglogQueued);
            assertThat(dislikedButPassed).as("the scenario needs runs raglog passed").isNotEmpty();
            assertThat(faults).extracting(Verdict::runId).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(union(raglogQueued, dislikedButPassed));
            assertThat(faults).filteredOn(v -> dislikedButPassed.contains(v.runId())).allSatisfy(v -> {
                assertThat(v.schema()).isEqualTo(Verdict.SCHEMA_V4);
                assertThat(v.queueReasons()).containsExactly(Verdict.USER_FEEDBACK);
            });

            assertIndexHoldsExactly(es, "fb-faults", List.copyOf(union(raglogQueued, dislikedButPassed)));
            Map<String, com.fasterxml.jackson.databind.JsonNode> documents = documents(es, "fb-faults");
            for (int i = 0; i < labels.size(); i++) {
                com.fasterxml.jackson.databind.JsonNode doc = documents.get(labels.get(i).runId());
                if (doc == null) {
                    continue; // neither flagged by raglog nor disliked: not in the queue
                }
                Feedback f = given.get(i);
                assertThat(doc.path("user_feedback").path(f.negative() ? "negative" : "positive").asInt())
                        .as("feedback %s in the document of %s", f.feedbackId(), labels.get(i).runId()).isEqualTo(1);
                assertThat(doc.path("queue_reasons").toString().contains("user_feedback")).isEqualTo(f.negative());
            }
        }

        List<FaultRate> negative = Demo.faultRates(kafka.bootstrapServers(), topics.faultRates()).stream()
                .filter(r -> r.stage().equals(FaultRate.USER_FEEDBACK_NEGATIVE)).toList();
        assertThat(negative).allSatisfy(r -> assertThat(r.schema()).isEqualTo(FaultRate.SCHEMA_V4));
        assertThat(negative.stream().mapToLong(FaultRate::runsChecked).sum()).as("records given, the retry too")
                .isEqualTo(given.size() + 1);
        assertThat(negative.stream().mapToLong(FaultRate::runsFlagged).sum())
                .isEqualTo(disliked.size() + 1 + (given.get(0).negative() ? 1 : 0));
        List<DeadLetter> letters = Demo.read(kafka.bootstrapServers(), topics.deadLetters(), DeadLetter.class);
        assertThat(letters).singleElement().satisfies(l -> {
            assertThat(l.origin()).isEqualTo(topics.feedback());
            assertThat(l.reason()).startsWith("invalid raglog.feedback/v1").contains("feedback_id is required");
        });
    }

    private static java.util.Set<String> union(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static Map<String, com.fasterxml.jackson.databind.JsonNode> documents(ElasticsearchProcess es,
            String index) throws Exception {
        try (var client = connection(es).openClient()) {
            var search = new org.elasticsearch.client.Request("GET", "/" + index + "/_search");
            search.setJsonEntity("{\"size\": 10000}");
            var hits = Json.MAPPER.readTree(client.performRequest(search).getEntity().getContent()).path("hits");
            Map<String, com.fasterxml.jackson.databind.JsonNode> byId = new HashMap<>();
            hits.path("hits").forEach(h -> byId.put(h.path("_id").asText(), h.path("_source")));
            return byId;
        }
    }

    /**
     * The evaluations topic holds each verdict once as an {@code ExportLogsServiceRequest} in protobuf (what a
     * Collector's kafka receiver decodes with {@code otlp_proto}): one {@code gen_ai.evaluation.result} per present
     * stage, on the verdict's trace and stage span when its run came in as OTLP spans (the simulator's OTel profile).
     */
    private static void assertEvaluationEventsOf(List<Verdict> verdicts, List<byte[]> records) throws Exception {
        Map<String, Verdict> byRun = new HashMap<>();
        verdicts.forEach(v -> byRun.put(v.runId(), v));
        assertThat(records).hasSameSizeAs(verdicts);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (byte[] value : records) {
            var request = io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest.parseFrom(value);
            var events = request.getResourceLogs(0).getScopeLogs(0).getLogRecordsList();
            String runId = attribute(events.get(0), "raglog.run_id").getStringValue();
            Verdict verdict = byRun.get(runId);
            assertThat(verdict).as("verdict of run %s", runId).isNotNull();
            assertThat(seen.add(runId)).as("one request per verdict").isTrue();
            assertThat(request.getResourceLogs(0).getResource().getAttributes(0).getValue().getStringValue())
                    .isEqualTo(verdict.pipeline());
            List<Stage> present = java.util.Arrays.stream(Stage.values())
                    .filter(s -> verdict.stages().get(s).present()).toList();
            assertThat(events).hasSameSizeAs(present);
            for (int i = 0; i < present.size(); i++) {
                Stage stage = present.get(i);
                var event = events.get(i);
                assertThat(event.getEventName()).isEqualTo("gen_ai.evaluation.result");
                assertThat(attribute(event, "gen_ai.evaluation.name").getStringValue())
                        .isEqualTo("raglog." + stage.id());
                assertThat(attribute(event, "gen_ai.evaluation.score.value").getDoubleValue())
                        .isEqualTo(verdict.stages().get(stage).probability());
                assertThat(attribute(event, "gen_ai.evaluation.score.label").getStringValue())
                        .isEqualTo(verdict.stages().get(stage).flagged() ? "fault" : "sound");
                String trace = java.util.HexFormat.of().formatHex(event.getTraceId().toByteArray());
                String span = java.util.HexFormat.of().formatHex(event.getSpanId().toByteArray());
                if (verdict.trace() == null) {
                    assertThat(trace + span).as("no trace context for a run the proxy captured").isEmpty();
                } else {
                    assertThat(trace).isEqualTo(verdict.trace().traceId());
                    String expected = verdict.trace().spanId(stage);
                    assertThat(span).isEqualTo(expected == null ? "" : expected);
                }
            }
        }
        assertThat(verdicts).as("runs of the simulator's OTel profile carry their trace")
                .anySatisfy(v -> assertThat(v.trace()).isNotNull())
                .anySatisfy(v -> assertThat(v.trace()).isNull());
    }

    private static io.opentelemetry.proto.common.v1.AnyValue attribute(
            io.opentelemetry.proto.logs.v1.LogRecord event, String key) {
        return event.getAttributesList().stream().filter(kv -> kv.getKey().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no attribute " + key)).getValue();
    }

    /** The index holds one document per flagged run, keyed by run id: no duplicates, none missing. */
    private static void assertIndexHoldsExactly(ElasticsearchProcess es, String index, List<String> runIds)
            throws Exception {
        try (var client = connection(es).openClient()) {
            client.performRequest(new org.elasticsearch.client.Request("POST", "/" + index + "/_refresh"));
            var search = new org.elasticsearch.client.Request("GET", "/" + index + "/_search");
            search.setJsonEntity("{\"size\": 10000, \"_source\": false}");
            var hits = Json.MAPPER.readTree(client.performRequest(search).getEntity().getContent()).path("hits");
            List<String> ids = new java.util.ArrayList<>();
            hits.path("hits").forEach(h -> ids.add(h.path("_id").asText()));
            assertThat(hits.path("total").path("value").asLong()).isEqualTo(runIds.size());
            assertThat(ids).containsExactlyInAnyOrderElementsOf(runIds);
        }
    }

    @Test
    void shouldSendEveryMalformedMessageToTheDeadLetterTopicWithAReason() throws Exception {
        Topics topics = freshTopics("malformed");
        List<byte[]> bad = List.of(
                "not json at all".getBytes(StandardCharsets.UTF_8),
                "{\"schema\":\"raglog.call/v1\",\"event_id\":".getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8),
                "[1,2,3]".getBytes(StandardCharsets.UTF_8),
                new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'},
                ("{\"schema\":\"raglog.call/v2\",\"event_id\":\"e\",\"pipeline\":\"p\",\"started_at\":\"2026-01-01T00:00:00Z\","
                        + "\"ended_at\":\"2026-01-01T00:00:01Z\",\"request\":{\"method\":\"POST\",\"url\":\"http://x/v1/embeddings\"},"
                        + "\"response\":{\"status\":200},\"source\":\"proxy\"}").getBytes(StandardCharsets.UTF_8),
                ("{\"schema\":\"raglog.call/v1\",\"event_id\":\"e\",\"pipeline\":\"p\",\"started_at\":\"yesterday\","
                        + "\"ended_at\":\"2026-01-01T00:00:01Z\",\"request\":{\"method\":\"POST\",\"url\":\"http://x\"},"
                        + "\"response\":{\"status\":\"200\"},\"source\":\"proxy\"}").getBytes(StandardCharsets.UTF_8));
        send(topics.calls(), bad);
        send(topics.otlp(), List.of(new byte[] {1, 2, 3, 4}));

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-malformed"));
        new KafkaConnection(kafka.bootstrapServers(), topics, "malformed-test", true, DeliveryGuarantee.AT_LEAST_ONCE,
                new Properties()).wire(env, JobSettings.defaults());
        env.execute("malformed");

        List<DeadLetter> letters = Demo.readAll(kafka.bootstrapServers(), topics.deadLetters()).stream()
                .map(v -> Json.read(v, DeadLetter.class)).toList();
        assertThat(letters).hasSize(bad.size() + 1);
        assertThat(letters).allSatisfy(l -> {
            assertThat(l.reason()).isNotBlank();
            assertThat(l.partition()).isBetween(0, 1);
            assertThat(l.offset()).isGreaterThanOrEqualTo(0);
        });
        assertThat(letters).extracting(DeadLetter::reason).anySatisfy(r -> assertThat(r).startsWith("not JSON"))
                .anySatisfy(r -> assertThat(r).isEqualTo("not valid UTF-8"))
                .anySatisfy(r -> assertThat(r).contains("expected 'raglog.call/v1'"))
                .anySatisfy(r -> assertThat(r).contains("started_at is not an RFC 3339 date-time")
                        .contains("response.status must be an integer"));
        assertThat(letters).filteredOn(l -> l.payload() == null).singleElement()
                .satisfies(l -> assertThat(java.util.Base64.getDecoder().decode(l.payloadBase64()))
                        .containsExactly('{', (byte) 0xC3, (byte) 0x28, '}'));
        assertThat(Demo.readAll(kafka.bootstrapServers(), topics.runs())).isEmpty();
    }

    private static ElasticsearchConnection connection(ElasticsearchProcess es) {
        return ElasticsearchConnection.builder().setHosts(es.url()).build();
    }
}

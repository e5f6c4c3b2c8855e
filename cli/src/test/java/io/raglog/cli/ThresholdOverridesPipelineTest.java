package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.Topics;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Label;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.ThresholdsUsed;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
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

/**
 * Threshold overrides published while the job runs (real KRaft broker, Flink MiniCluster with RocksDB and
 * checkpoints): the runs scored before keep the bundle's thresholds, the later runs of the overridden pipeline carry
 * the override's, the other pipeline's keep the bundle's, and a record that is not an override is a dead letter.
 */
class ThresholdOverridesPipelineTest {

    private static final String OVERRIDDEN = "support-assistant";
    private static final String OTHER = "docs-qa";
    private static final String PROFILES = "openai-qdrant-cohere,tei-pinecone-anthropic";
    private static final Duration WAIT = Duration.ofMinutes(4);

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static EmbeddedKafka kafka;
    /** The event time of the last tick, repeated while the test waits: traffic that goes on without moving time. */
    private static Instant lastTick;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = EmbeddedKafka.start(Path.of(System.getProperty("java.io.tmpdir"), "kafka-" + System.nanoTime()));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka.close();
    }

    @Test
    void shouldScoreThePipelinesLaterRunsWithTheOverridePublishedMidStream() throws Exception {
        Topics topics = Topics.prefixed("overrides");
        kafka.createTopics(topics.all().stream().filter(t -> !t.equals(topics.thresholds())).toList(), 2);
        ThresholdsTopic thresholds = new ThresholdsTopic(kafka.bootstrapServers(), topics.thresholds());
        thresholds.ensureCompacted();

        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        List<Label> before = simulate(topics, SimulatorOptions.of(PROFILES, 16, 51).withClockStart(start));
        JobClient job = start(topics);
        try {
            // event time past the first runs' grace, so every one of them closes and is scored before the override
            tick(topics, start.plus(Duration.ofHours(12)));
            Map<String, Verdict> first = awaitVerdicts(topics, before.size());
            String bundle = first.values().iterator().next().modelBundle();
            double bundleGenerate = first.values().iterator().next().stages().generate().threshold();

            thresholds.publish(PipelineThresholds.of(OVERRIDDEN, thresholds.latestVersion(OVERRIDDEN) + 1, bundle,
                    Map.of(Stage.GENERATE, 0.001), new PipelineThresholds.Basis(200, 0.05,
                            PipelineThresholds.SOURCE_REVIEWS), Instant.now()));
            thresholds.publish(PipelineThresholds.of(OTHER, 1, "another-bundle@0", Map.of(Stage.GENERATE, 0.001),
                    new PipelineThresholds.Basis(200, 0.05, PipelineThresholds.SOURCE_REVIEWS), Instant.now()));
            send(topics.thresholds(), OVERRIDDEN, "{\"schema\":\"raglog.thresholds/v1\",\"pipeline\":\"x\"}");
            // the bad record is decoded after the two overrides, and its dead letter is committed with a checkpoint
            // that every scoring task took after receiving them: from then on they are in force
            awaitDeadLetter(topics, "raglog.thresholds/v1");

            List<Label> after = simulate(topics, SimulatorOptions.of(PROFILES, 16, 52)
                    .withClockStart(start.plus(Duration.ofDays(1))));
            tick(topics, start.plus(Duration.ofDays(2)));
            Map<String, Verdict> all = awaitVerdicts(topics, before.size() + after.size());

            assertThat(before).allSatisfy(label -> assertThat(all.get(label.runId()).thresholds())
                    .isEqualTo(ThresholdsUsed.bundle(bundle)));
            Set<String> pipelines = after.stream().map(Label::pipeline).collect(Collectors.toSet());
            assertThat(pipelines).contains(OVERRIDDEN, OTHER);
            for (Label label : after) {
                Verdict verdict = all.get(label.runId());
                if (label.pipeline().equals(OVERRIDDEN)) {
                    assertThat(verdict.thresholds()).isEqualTo(new ThresholdsUsed(OVERRIDDEN + "/v1",
                            PipelineThresholds.SOURCE_REVIEWS, Map.of(Stage.GENERATE.id(), bundleGenerate)));
                    assertThat(verdict.stages().generate().threshold()).isEqualTo(0.001);
                } else {
                    assertThat(verdict.thresholds()).isEqualTo(ThresholdsUsed.bundle(bundle));
                    assertThat(verdict.stages().generate().threshold()).isEqualTo(bundleGenerate);
                }
                assertThat(verdict.schema()).isEqualTo(Verdict.SCHEMA_V4);
            }
            // the overrides take no part in event time: the windows after scoring close, and count every run
            awaitFaultRates(topics, before.size() + after.size(), start.plus(Duration.ofDays(3)));
        } finally {
            job.cancel().get();
        }
    }

    @Test
    void shouldCreateTheTopicWhenMissingAndScoreWithTheBundlesThresholds() throws Exception {
        Topics topics = Topics.prefixed("no-overrides");
        kafka.createTopics(topics.all().stream().filter(t -> !t.equals(topics.thresholds())).toList(), 2);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        List<Label> labels = simulate(topics, SimulatorOptions.of(PROFILES, 8, 53).withClockStart(start));

        JobClient job = start(topics);
        try {
            tick(topics, start.plus(Duration.ofHours(12)));
            Map<String, Verdict> verdicts = awaitVerdicts(topics, labels.size());
            assertThat(verdicts.values()).allSatisfy(v -> assertThat(v.thresholds().source())
                    .isEqualTo(ThresholdsUsed.BUNDLE));
            awaitFaultRates(topics, labels.size(), start.plus(Duration.ofDays(1)));
            try (var admin = kafka.admin()) {
                assertThat(admin.listTopics().names().get()).contains(topics.thresholds());
            }
        } finally {
            job.cancel().get();
        }
    }

    /** The job, unbounded, as {@code run} deploys it. */
    private static JobClient start(Topics topics) throws Exception {
        StreamExecutionEnvironment env = KafkaPipelineTest.environment(
                Path.of(System.getProperty("java.io.tmpdir"), "cp-" + topics.runs() + "-" + System.nanoTime()));
        new KafkaConnection(kafka.bootstrapServers(), topics, topics.runs(), false, DeliveryGuarantee.EXACTLY_ONCE,
                new Properties()).wire(env, JobSettings.defaults());
        return env.executeAsync(topics.runs());
    }

    /**
     * Every scored run counts once in its pipeline's knowledge-gap series: none was late for its window. Traffic goes
     * on meanwhile (a tick a second, a minute of event time apart), as in production: an idle input holds no
     * watermark, so the windows of runs still in the checks when the calls stopped close with the next traffic.
     */
    private static void awaitFaultRates(Topics topics, int runs, Instant from) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int minute = 0; ; minute++) {
            tick(topics, from.plus(Duration.ofMinutes(minute)));
            long counted = Demo.faultRates(kafka.bootstrapServers(), topics.faultRates()).stream()
                    .filter(r -> r.stage().equals(Verdict.KNOWLEDGE_GAP)).mapToLong(FaultRate::runsChecked).sum();
            if (counted >= runs || System.nanoTime() > deadline) {
                assertThat(counted).as("runs counted in the fault rates").isEqualTo(runs);
                return;
            }
            Thread.sleep(500);
        }
    }

    private static List<Label> simulate(Topics topics, SimulatorOptions options) throws Exception {
        String labelsTopic = topics.runs() + ".labels-" + options.seed();
        kafka.createTopics(List.of(labelsTopic), 1);
        try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                new KafkaSink.Topics(topics.calls(), topics.otlp(), labelsTopic))) {
            new Simulator(options).run(sink);
        }
        return Demo.read(kafka.bootstrapServers(), labelsTopic, Label.class);
    }

    /**
     * A record stamped {@code at} on every partition of every input the job reads with event time (calls, traces,
     * feedback): the watermark moves past the runs before it, as later traffic would move it (it is none of those, so
     * it becomes a dead letter). The traces and feedback topics get no other records here: without the ticks, their
     * empty partitions would hold the watermark back until the sources' idleness (30 s) let it go.
     */
    private static void tick(Topics topics, Instant at) {
        lastTick = at;
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (String topic : List.of(topics.calls(), topics.otlp(), topics.feedback())) {
                for (int partition = 0; partition < 2; partition++) {
                    producer.send(new ProducerRecord<>(topic, partition, at.toEpochMilli(), null,
                            "clock tick".getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
    }

    private static void send(String topic, String key, String value) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Waits for the verdicts while traffic goes on at the last tick's time, as production traffic would: a source
     * left without records turns idle, and idleness passes the LLM checks ahead of the runs in them, so their verdicts
     * would reach the fault-rate windows after the other inputs closed them. In production event time keeps step with
     * the clock and the windows' allowed lateness takes them; these ticks jump by days.
     */
    private static Map<String, Verdict> awaitVerdicts(Topics topics, int runs) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            tick(topics, lastTick);
            List<Verdict> verdicts = Demo.read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
            if (verdicts.size() >= runs || System.nanoTime() > deadline) {
                assertThat(verdicts).as("verdicts").hasSize(runs);
                return verdicts.stream().collect(Collectors.toMap(Verdict::runId, Function.identity()));
            }
            Thread.sleep(500);
        }
    }

    private static void awaitDeadLetter(Topics topics, String reason) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (Demo.read(kafka.bootstrapServers(), topics.deadLetters(), DeadLetter.class).stream()
                .noneMatch(l -> l.reason().contains(reason))) {
            tick(topics, lastTick);
            assertThat(System.nanoTime()).as("a dead letter saying " + reason).isLessThan(deadline);
            Thread.sleep(1000);
        }
    }
}

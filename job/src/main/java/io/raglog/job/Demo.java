package io.raglog.job;

import io.raglog.job.io.EmbeddedKafka;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.simulator.SimulationSummary;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The embedded default, end to end: a real KRaft broker and a local Flink cluster in this process, simulated
 * pipeline traffic produced into {@code raglog.calls} / {@code raglog.otlp}, the job reading them to their end, and
 * the runs it wrote to {@code raglog.runs} printed readably.
 */
public final class Demo {

    /** Where the simulator writes its ground truth, so the demo can say how it did. */
    static final String LABELS_TOPIC = "raglog.labels";

    private final int runs;
    private final long seed;

    public Demo() {
        this(200, 7);
    }

    public Demo(int runs, long seed) {
        this.runs = runs;
        this.seed = seed;
    }

    public int run(PrintStream out) throws Exception {
        Path work = Files.createTempDirectory("raglog-demo-");
        out.println("raglog demo: embedded Kafka broker + local Flink, " + runs + " simulated runs (seed " + seed + ")");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"))) {
            Topics topics = Topics.DEFAULTS;
            List<String> all = new ArrayList<>(topics.all());
            all.add(LABELS_TOPIC);
            kafka.createTopics(all, 2);
            out.println("  broker up at " + kafka.bootstrapServers() + "; topics " + all);

            SimulationSummary simulated;
            try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                    new KafkaSink.Topics(topics.calls(), topics.otlp(), LABELS_TOPIC))) {
                simulated = new Simulator(SimulatorOptions.of("all", runs, seed)).run(sink);
            }
            out.printf("  simulator: %s%n", simulated.describe());

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
            env.setParallelism(2);
            KafkaJob.wire(env, kafka.bootstrapServers(), topics, "raglog-demo", true,
                    DeliveryGuarantee.AT_LEAST_ONCE, TopologySettings.DEFAULTS);
            long start = System.nanoTime();
            env.execute("raglog demo");
            out.printf("  job finished in %.1f s%n", (System.nanoTime() - start) / 1e9);

            List<Run> assembled = new ArrayList<>();
            for (byte[] value : readAll(kafka.bootstrapServers(), topics.runs())) {
                assembled.add(Json.read(value, Run.class));
            }
            long deadLetters = readAll(kafka.bootstrapServers(), topics.deadLetters()).size();
            List<Label> labels = new ArrayList<>();
            for (byte[] value : readAll(kafka.bootstrapServers(), LABELS_TOPIC)) {
                labels.add(Json.read(value, Label.class));
            }
            printRuns(out, assembled, deadLetters);
            printAgreement(out, assembled, labels);
            return 0;
        } finally {
            deleteQuietly(work);
        }
    }

    private static void printRuns(PrintStream out, List<Run> runs, long deadLetters) {
        out.println();
        out.printf("%-18s %-16s %-5s %-52s %s%n", "run", "pipeline", "calls", "question", "stages present");
        int shown = 0;
        for (Run run : runs) {
            if (shown++ >= 15) {
                break;
            }
            StringBuilder stages = new StringBuilder();
            for (Stage s : Stage.values()) {
                if (run.has(s)) {
                    stages.append(s.id()).append(s == Stage.RETRIEVE && run.stages().retrieve().reconstructed()
                            ? "(rebuilt)" : "").append(' ');
                }
            }
            out.printf("%-18s %-16s %-5d %-52s %s%s%n", run.runId(), cut(run.pipeline(), 16), run.callIds().size(),
                    cut(run.question(), 52), stages, run.incomplete() ? " INCOMPLETE" : "");
        }
        long incomplete = runs.stream().filter(Run::incomplete).count();
        out.println();
        out.printf("assembled %d runs (%d incomplete); %d messages in the dead-letter topic%n",
                runs.size(), incomplete, deadLetters);
    }

    /** How the assembled runs line up with the simulator's ground truth, joined by run id. */
    private static void printAgreement(PrintStream out, List<Run> runs, List<Label> labels) {
        java.util.Map<String, Run> byId = new java.util.HashMap<>();
        runs.forEach(r -> byId.put(r.runId(), r));
        int found = 0;
        int stagesAgree = 0;
        for (Label label : labels) {
            Run run = byId.get(label.runId());
            if (run == null) {
                continue;
            }
            found++;
            boolean agree = true;
            for (Stage s : Stage.values()) {
                agree &= (label.stages().get(s) != null) == run.has(s);
            }
            stagesAgree += agree ? 1 : 0;
        }
        out.printf("ground truth: %d of %d simulated runs assembled under their labeled run id; stage presence agrees "
                + "for %d%n", found, labels.size(), stagesAgree);
    }

    private static String cut(String s, int n) {
        if (s == null) {
            return "-";
        }
        return s.length() <= n ? s : s.substring(0, n - 1) + "\u2026";
    }

    /** Reads a topic from the beginning to its current end. */
    static List<byte[]> readAll(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "raglog-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
        }
        return values;
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is not worth failing the demo for
        }
    }
}

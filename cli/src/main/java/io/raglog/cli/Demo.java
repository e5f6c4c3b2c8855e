package io.raglog.cli;

import io.raglog.cli.io.CommittedRecords;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.job.ElasticsearchOutputs;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.Topics;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.SimulationSummary;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.output.KafkaSink;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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

    private static final java.time.Duration PROGRESS_EVERY = java.time.Duration.ofSeconds(5);
    private static final int SHOWN = 8;

    private final int runs;
    private final long seed;
    private final boolean elasticsearch;
    private final JobSettings settings;

    /** With the settings {@code run} reads from this process's environment (no raglog.yaml). */
    public Demo(int runs, long seed, boolean elasticsearch) {
        this(runs, seed, elasticsearch, JobSettings.defaults());
    }

    /**
     * @param settings the job's settings as {@code run} builds them from raglog.yaml and the environment; the demo's
     *     own broker, topics and parallelism replace the file's Kafka, Elasticsearch and Flink sections
     */
    public Demo(int runs, long seed, boolean elasticsearch, JobSettings settings) {
        this.runs = runs;
        this.seed = seed;
        this.elasticsearch = elasticsearch;
        this.settings = settings;
    }

    public int run(PrintStream out) throws Exception {
        Path work = Files.createTempDirectory("raglog-demo-");
        out.println("raglog demo: embedded Kafka broker + local Flink, " + runs + " simulated runs (seed " + seed
                + ", questions of the test split)");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"));
                ElasticsearchProcess es = elasticsearch ? ElasticsearchProcess.start(work.resolve("es")) : null) {
            if (es != null) {
                out.println("  elasticsearch node up at " + es.url());
            }
            Topics topics = Topics.DEFAULTS;
            List<String> all = new ArrayList<>(topics.all());
            all.add(LABELS_TOPIC);
            kafka.createTopics(all, 2);
            out.println("  broker up at " + kafka.bootstrapServers() + "; topics " + all);

            SimulationSummary simulated;
            try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                    new KafkaSink.Topics(topics.calls(), topics.otlp(), LABELS_TOPIC))) {
                // the test split's questions only: the shipped bundle was trained on the train split, never on these
                simulated = new Simulator(SimulatorOptions.of("all", runs, seed).withSplit(ArticleSplits.TEST))
                        .run(sink);
            }
            out.printf("  simulator: %s%n", simulated.describe());

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
            env.setParallelism(2);
            KafkaConnection local = new KafkaConnection(kafka.bootstrapServers(), topics, "raglog-demo", true,
                    DeliveryGuarantee.AT_LEAST_ONCE, new Properties());
            RaglogPipeline.Sinks sinks = es == null ? local.sinks() : local.sinks().and(
                    ElasticsearchOutputs.installed(connection(es), IndexTemplates.FAULTS, IndexTemplates.FAULT_RATES));
            RaglogPipeline.wire(local.sources(env, settings), sinks, settings);
            long start = System.nanoTime();
            // the local cluster shuts down with the job, so progress is polled on the result, not the job status
            var result = env.executeAsync("raglog demo").getJobExecutionResult();
            while (true) {
                try {
                    result.get(PROGRESS_EVERY.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException stillRunning) {
                    out.printf("  ... %.0f s: %d runs assembled, %d scored%n", (System.nanoTime() - start) / 1e9,
                            count(kafka.bootstrapServers(), topics.runs()),
                            count(kafka.bootstrapServers(), topics.verdicts()));
                }
            }
            out.printf("  job finished in %.1f s%n", (System.nanoTime() - start) / 1e9);

            List<Run> assembled = read(kafka.bootstrapServers(), topics.runs(), Run.class);
            List<Verdict> verdicts = read(kafka.bootstrapServers(), topics.verdicts(), Verdict.class);
            List<Verdict> faults = read(kafka.bootstrapServers(), topics.faults(), Verdict.class);
            List<FaultRate> rates = faultRates(kafka.bootstrapServers(), topics.faultRates());
            List<Label> labels = read(kafka.bootstrapServers(), LABELS_TOPIC, Label.class);
            long deadLetters = count(kafka.bootstrapServers(), topics.deadLetters());

            out.printf("%nassembled %d runs (%d incomplete), %d messages in the dead-letter topic; %s%n",
                    assembled.size(), assembled.stream().filter(Run::incomplete).count(), deadLetters,
                    agreement(assembled, labels));
            out.printf("scored %d runs with bundle %s; %d flagged into %s (the debugging queue); %d fault-rate windows"
                    + " in %s%n", verdicts.size(), verdicts.isEmpty() ? "-" : verdicts.get(0).modelBundle(),
                    faults.size(), topics.faults(), rates.size(), topics.faultRates());
            printFlagged(out, faults);
            String judge = verdicts.isEmpty() || verdicts.get(0).llm() == null ? settings.checks().llm().judgeId()
                    : verdicts.get(0).llm().judge();
            new DemoReport(verdicts, labels).print(out, judge);
            if (es != null) {
                out.printf("%nelasticsearch %s: %d documents in %s, %d in %s%n", es.url(),
                        documents(es, IndexTemplates.FAULTS), IndexTemplates.FAULTS,
                        documents(es, IndexTemplates.FAULT_RATES), IndexTemplates.FAULT_RATES);
            }
            return 0;
        } finally {
            deleteQuietly(work);
        }
    }

    /** The debugging queue as a person reads it: the question, what was flagged, why, and what to try. */
    private static void printFlagged(PrintStream out, List<Verdict> faults) {
        out.println();
        out.println("flagged runs and knowledge gaps (first " + Math.min(SHOWN, faults.size()) + " of " + faults.size()
                + "):");
        int shown = 0;
        for (Verdict v : faults) {
            if (shown++ >= SHOWN) {
                break;
            }
            out.printf("%n  %s  %s  %s%n", v.runId(), v.pipeline(), cut(v.question(), 80));
            out.printf("    answer: %s%n", cut(v.answer(), 90));
            for (Stage s : v.flaggedStages()) {
                StageVerdict sv = v.stages().get(s);
                out.printf("    %-8s p=%.2f (threshold %.2f)%s%n", s.id(), sv.probability(), sv.threshold(),
                        v.reassigned() && s == Stage.RERANK ? "  [reassigned from retrieve]" : "");
                for (String evidence : sv.evidence().subList(0, Math.min(3, sv.evidence().size()))) {
                    out.printf("             - %s%n", cut(evidence, 100));
                }
                out.printf("             hint: %s%n", cut(sv.repairHint(), 100));
            }
            if (v.knowledgeGap().flagged()) {
                out.printf("    %-8s score=%.2f%n", "knowledge gap", v.knowledgeGap().score());
                for (String evidence : v.knowledgeGap().evidence().subList(0,
                        Math.min(3, v.knowledgeGap().evidence().size()))) {
                    out.printf("             - %s%n", cut(evidence, 100));
                }
                out.printf("             hint: %s%n", cut(v.knowledgeGap().repairHint(), 100));
            }
        }
    }

    /** How the assembled runs line up with the simulator's ground truth, joined by run id. */
    private static String agreement(List<Run> runs, List<Label> labels) {
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
                // a labeled stage must be there; an unlabeled one may be (retrieval for an unanswerable question)
                agree &= label.stages().get(s) == null || run.has(s);
            }
            stagesAgree += agree ? 1 : 0;
        }
        return String.format("%d of %d simulated runs assembled under their labeled id, every labeled stage present in %d",
                found, labels.size(), stagesAgree);
    }

    private static String cut(String s, int n) {
        if (s == null) {
            return "-";
        }
        return s.length() <= n ? s : s.substring(0, n - 1) + "\u2026";
    }

    private static long documents(ElasticsearchProcess es, String index) throws IOException {
        try (var client = connection(es).openClient()) {
            client.performRequest(new org.elasticsearch.client.Request("POST", "/" + index + "/_refresh"));
            var response = client.performRequest(new org.elasticsearch.client.Request("GET", "/" + index + "/_count"));
            return Json.MAPPER.readTree(response.getEntity().getContent()).path("count").asLong();
        }
    }

    /** The fault rates of a topic, the latest record of each window (one closed again by late verdicts counts once). */
    static List<FaultRate> faultRates(String bootstrap, String topic) {
        return FaultRate.latestPerWindow(read(bootstrap, topic, FaultRate.class));
    }

    static <T> List<T> read(String bootstrap, String topic, Class<T> type) {
        List<T> values = new ArrayList<>();
        for (byte[] value : readAll(bootstrap, topic)) {
            values.add(Json.read(value, type));
        }
        return values;
    }

    /** How many records a topic holds now, from its offsets (the demo writes without transactions). */
    static long count(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            long end = consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            long begin = consumer.beginningOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            return end - begin;
        }
    }

    /**
     * Reads a topic from the beginning to its end, once the job that wrote it has finished: what it committed, after
     * its last commits have landed ({@link CommittedRecords}).
     */
    static List<byte[]> readAll(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "raglog-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return CommittedRecords.read(props, topic);
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is not worth failing the demo for
        }
    }

    private static ElasticsearchConnection connection(ElasticsearchProcess es) {
        return ElasticsearchConnection.builder().setHosts(es.url()).build();
    }
}

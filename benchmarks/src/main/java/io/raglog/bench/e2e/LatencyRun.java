package io.raglog.bench.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.assemble.AssemblySettings;
import io.raglog.bench.Machine;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.Topics;
import io.raglog.job.TopologySettings;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import io.raglog.simulator.output.SimulationSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Latency under a steady load: the job runs unbounded while the simulator produces at a fixed rate, and each verdict's
 * arrival in the output topic is compared with the moment its run's generator call was written to Kafka (what the
 * proxy does when the call ends: the call's event time on a live system).
 */
final class LatencyRun {

    /**
     * @param heapMaxMb the most heap this JVM (broker, cluster, simulator) used while under load, garbage included
     * @param liveHeapMb the heap this JVM kept (used right after a full collection) once every measured verdict was
     *     out, the job still running with its state: broker, cluster, job and model together
     * @param assemblyP50Ms generator call written → its run's record in the runs topic (ingest, linking, the wait)
     * @param checksP50Ms the run's record → its verdict's record (checks, the LLM, scoring)
     */
    record Result(double p50Ms, double p99Ms, int measured, double offeredRunsPerSecond, double heapMaxMb,
            double liveHeapMb, double assemblyP50Ms, double assemblyP99Ms, double checksP50Ms, double checksP99Ms) {}

    /**
     * The load goes on this long past the measured part: a run closes only when later calls move the watermark past
     * its generator call + grace, so the last runs of any load never close on their own.
     */
    private static final Duration TAIL = Duration.ofSeconds(10);
    private static final Duration DRAIN = Duration.ofSeconds(20);

    private LatencyRun() {}

    /**
     * @param sourceIdleness how soon a partition with no calls stops holding the watermark: the OTLP topic gets a
     *     batch a second at most, so the default 30 s would measure idleness, not the job
     */
    static Result measure(EmbeddedKafka kafka, ChecksSettings checks, int parallelism, double runsPerSecond,
            Duration load, Duration sourceIdleness, long seed) throws Exception {
        Topics topics = Topics.prefixed("latency");
        kafka.createTopics(List.of(topics.calls(), topics.otlp(), "latency.labels"), 2);
        // The outputs' timestamps are the broker's: a verdict counts as out when it is in the topic, after the sink's
        // producer has held it for its batch (KafkaIO.LINGER_MS), not when the sink handed it to the producer.
        kafka.createTopics(List.of(topics.runs(), topics.deadLetters(), topics.verdicts(), topics.faults(),
                topics.faultRates(), topics.drift(), topics.evaluations()), 2,
                Map.of("message.timestamp.type", "LogAppendTime"));
        StreamExecutionEnvironment env = JobRuns.environment(parallelism);
        TopologySettings topology = new TopologySettings(TopologySettings.DEFAULTS.maxOutOfOrder(), sourceIdleness,
                AssemblySettings.DEFAULTS, TopologySettings.DEFAULTS.endpointMapping());
        JobSettings base = JobSettings.defaults().withChecks(checks);
        JobSettings settings = new JobSettings(topology, base.checks(), base.bundle(), base.sampling(),
                base.faultRateWindow());
        new KafkaConnection(kafka.bootstrapServers(), topics, "bench-latency", false, DeliveryGuarantee.AT_LEAST_ONCE,
                new Properties()).wire(env, settings);
        JobClient job = env.executeAsync("raglog bench latency");
        try {
            awaitRunning(job);
            Timed sink = new Timed(KafkaSink.connect(kafka.bootstrapServers(),
                    new KafkaSink.Topics(topics.calls(), topics.otlp(), "latency.labels")));
            int runs = (int) Math.round(runsPerSecond * (load.toSeconds() + TAIL.toSeconds()));
            double[] heapMax = {0};
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    heapMax[0] = Math.max(heapMax[0], Machine.usedHeapMb());
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
            long loadStart = System.currentTimeMillis();
            try (sink) {
                new Simulator(SimulatorOptions.of("all", runs, seed).withPace(runsPerSecond)
                        .withClockStart(Instant.now())).run(sink);
            }
            Map<String, Long> due = sink.generatorSentAt(loadStart + load.toMillis());
            long deadline = System.currentTimeMillis() + DRAIN.toMillis();
            while (System.currentTimeMillis() < deadline
                    && TopicRecords.count(kafka.bootstrapServers(), topics.verdicts()) < due.size()) {
                Thread.sleep(500);
            }
            sampler.interrupt();
            double liveAfter = Machine.liveHeapMb(); // the measured verdicts are out: the pause lands on no figure
            Map<String, Long> assembledAt = new java.util.HashMap<>();
            for (TopicRecords.Timed r : TopicRecords.readAll(kafka.bootstrapServers(), topics.runs())) {
                assembledAt.put(Json.read(r.value(), Run.class).runId(), r.timestampMs());
            }
            List<Double> latencies = new ArrayList<>();
            List<Double> assembly = new ArrayList<>();
            List<Double> checking = new ArrayList<>();
            for (TopicRecords.Timed r : TopicRecords.readAll(kafka.bootstrapServers(), topics.verdicts())) {
                String runId = Json.read(r.value(), Verdict.class).runId();
                Long sent = due.get(runId);
                if (sent != null) {
                    latencies.add((double) (r.timestampMs() - sent));
                    Long assembled = assembledAt.get(runId);
                    if (assembled != null) {
                        assembly.add((double) (assembled - sent));
                        checking.add((double) (r.timestampMs() - assembled));
                    }
                }
            }
            latencies.sort(null);
            assembly.sort(null);
            checking.sort(null);
            return new Result(quantile(latencies, 0.50), quantile(latencies, 0.99), latencies.size(),
                    runsPerSecond, heapMax[0], liveAfter, quantile(assembly, 0.50), quantile(assembly, 0.99),
                    quantile(checking, 0.50), quantile(checking, 0.99));
        } finally {
            job.cancel().get();
        }
    }

    private static void awaitRunning(JobClient job) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (job.getJobStatus().get() != JobStatus.RUNNING) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the latency job did not start within a minute");
            }
            Thread.sleep(200);
        }
        // the job is RUNNING before its tasks have opened: give the model and the bundle time to load
        Thread.sleep(5_000);
    }

    static double quantile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    /** The Kafka sink, noting when each call was written and which call generated each run's answer. */
    private static final class Timed implements SimulationSink {
        private final KafkaSink kafka;
        private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
        private final Map<String, String> generatorOf = new ConcurrentHashMap<>();

        Timed(KafkaSink kafka) {
            this.kafka = kafka;
        }

        @Override
        public void call(CallEvent call) {
            kafka.call(call);
            sentAt.put(call.eventId(), System.currentTimeMillis());
        }

        @Override
        public void traces(ObjectNode request) {
            kafka.traces(request);
        }

        @Override
        public void label(Label label) {
            kafka.label(label);
            if (label.generatorEventId() != null) {
                generatorOf.put(label.runId(), label.generatorEventId());
            }
        }

        @Override
        public void close() {
            kafka.close();
        }

        /** Run id → when its generator call was written, for runs written before {@code cutoff}. */
        Map<String, Long> generatorSentAt(long cutoffMs) {
            Map<String, Long> out = new java.util.HashMap<>();
            generatorOf.forEach((run, event) -> {
                Long sent = sentAt.get(event);
                if (sent != null && sent <= cutoffMs) {
                    out.put(run, sent);
                }
            });
            return out;
        }
    }
}

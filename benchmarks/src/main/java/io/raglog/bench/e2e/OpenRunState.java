package io.raglog.bench.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.JobSettings;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.TopologySettings;
import io.raglog.job.io.KafkaIO;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import io.raglog.simulator.output.SimulationSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Bytes of RocksDB state per open run: the assembly reads every call of many runs except the generator call that
 * would close them, so they all stay open; the RocksDB files of the checkpoint that covers the whole input (the
 * production configuration: RocksDB, incremental checkpoints), less those of an empty-state checkpoint, divided by
 * the runs held open.
 */
final class OpenRunState {

    record Result(double bytesPerOpenRun, long openRuns, long stateBytes) {}

    private static final String TOPIC = "state.calls";
    private static final String GROUP = "bench-state";

    private OpenRunState() {}

    static Result measure(EmbeddedKafka kafka, int runs, long seed, Path work) throws Exception {
        kafka.createTopics(List.of(TOPIC, "state.otlp", "state.labels", "state.runs"), 2);
        Path checkpoints = Files.createDirectories(work.resolve("checkpoints"));
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "rocksdb");
        conf.setString("execution.checkpointing.incremental", "true");
        conf.setString("execution.checkpointing.interval", "1 s");
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        StreamExecutionEnvironment env = JobRuns.environment(1, conf);
        var calls = KafkaIO.source(env, kafka.bootstrapServers(), TOPIC, GROUP, false,
                KafkaIO.recordTimeWatermarks(TopologySettings.DEFAULTS.maxOutOfOrder(),
                        TopologySettings.DEFAULTS.sourceIdleness()), new Properties());
        // the assembly alone: the sinks want no verdicts, so nothing is sampled, checked or scored
        RaglogPipeline.wire(new RaglogPipeline.Sources(calls, null), new RaglogPipeline.Sinks() {
            @Override
            public boolean wantsVerdicts() {
                return false;
            }

            @Override
            public void runs(DataStream<Run> runs) {
                runs.sinkTo(KafkaIO.<Run>sink(kafka.bootstrapServers(), "state.runs", Run::runId,
                        DeliveryGuarantee.AT_LEAST_ONCE, "bench-state", new Properties())).uid("sink-state-runs");
            }

            @Override
            public void deadLetters(DataStream<DeadLetter> deadLetters) {
                deadLetters.sinkTo(new DiscardingSink<>()).uid("sink-state-dlq");
            }
        }, JobSettings.defaults());
        JobClient job = env.executeAsync("raglog bench open-run state");
        try {
            long empty = awaitCheckpoints(checkpoints, 2);
            long opened = produceWithoutGenerators(kafka, runs, seed);
            long deadline = System.currentTimeMillis() + 120_000;
            while (!TopicRecords.committedToEnd(kafka.bootstrapServers(), TOPIC, GROUP)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the assembly did not checkpoint the whole input in 2 minutes");
                }
                Thread.sleep(250);
            }
            // the checkpoint that committed the end offsets holds every call; its files are written by now
            long full = size(checkpoints);
            long closed = TopicRecords.count(kafka.bootstrapServers(), "state.runs");
            long open = Math.max(1, opened - closed);
            return new Result((full - empty) / (double) open, open, full - empty);
        } finally {
            job.cancel().get();
        }
    }

    /** Waits for some completed checkpoints of the job before any input, and returns their bytes on disk. */
    private static long awaitCheckpoints(Path dir, int count) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (maxCheckpoint(dir) < count) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no checkpoints within a minute");
            }
            Thread.sleep(200);
        }
        return size(dir);
    }

    /** Every proxy-captured call of the simulated runs except their generator calls; returns the runs written. */
    private static long produceWithoutGenerators(EmbeddedKafka kafka, int runs, long seed) {
        List<CallEvent> calls = new ArrayList<>();
        Set<String> generators = new HashSet<>();
        new Simulator(SimulatorOptions.of("all", runs, seed).withIndexEvery(0)).run(new SimulationSink() {
            @Override
            public void call(CallEvent call) {
                calls.add(call);
            }

            @Override
            public void traces(ObjectNode request) {
                // the OTLP profile's runs are left out: their generator is a span, not a call to hold back
            }

            @Override
            public void label(Label label) {
                if (label.generatorEventId() != null) {
                    generators.add(label.generatorEventId());
                }
            }

            @Override
            public void close() {}
        });
        try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                new KafkaSink.Topics(TOPIC, "state.otlp", "state.labels"))) {
            for (CallEvent c : calls) {
                if (!generators.contains(c.eventId())) {
                    sink.call(c);
                }
            }
        }
        // one generator call per proxy-captured run: the runs now held open
        return calls.stream().filter(c -> generators.contains(c.eventId())).count();
    }

    private static int maxCheckpoint(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try (var paths = Files.walk(dir)) {
                return paths.map(p -> p.getFileName().toString()).filter(n -> n.matches("chk-\\d+"))
                        .mapToInt(n -> Integer.parseInt(n.substring(4))).max().orElse(0);
            } catch (java.io.UncheckedIOException | IOException racedWithCleanup) {
                if (attempt == 5) {
                    throw racedWithCleanup;
                }
            }
        }
    }

    /** Bytes of the retained checkpoint and the shared RocksDB files (Flink deletes older checkpoints meanwhile). */
    private static long size(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try (var paths = Files.walk(dir)) {
                return paths.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            } catch (java.io.UncheckedIOException | IOException racedWithCleanup) {
                if (attempt == 5) {
                    throw racedWithCleanup;
                }
            }
        }
    }
}

package io.raglog.bench.e2e;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.Topics;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.KafkaSink;
import java.util.List;
import org.apache.flink.configuration.Configuration;

/**
 * The no-vector job catching up on a backlog larger than the shared input, on RocksDB as {@code run} deploys it.
 *
 * <p>Why a variant of its own: reading a backlog, one partition runs ahead of the watermark, and a key without run
 * hints (a pipeline's hint-less calls) then holds far more open calls than when the job keeps up. Each timer used to
 * go over all of them, so a run's cost grew with the backlog, and on RocksDB most: 42-44 runs/s on a 6,000-run
 * backlog where the shared input's 2,000 runs went at ~350 on the heap (measured in a driver). The shared input is
 * too small to show that; this figure, beside the no-vector job's, does.
 */
final class BacklogRun {

    record Result(int runs, long verdicts, double runsPerSecond) {}

    private BacklogRun() {}

    static Result measure(EmbeddedKafka kafka, ChecksSettings noVector, int runs, long seed) throws Exception {
        Topics input = Topics.prefixed("backlog");
        kafka.createTopics(List.of(input.calls(), input.otlp(), "backlog.labels"), 2);
        try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(),
                new KafkaSink.Topics(input.calls(), input.otlp(), "backlog.labels"))) {
            new Simulator(SimulatorOptions.of("all", runs, seed)).run(sink);
        }
        Configuration rocksDb = new Configuration();
        rocksDb.setString("state.backend.type", "rocksdb");
        Topics out = new JobRuns(kafka, input).runJob("backlog-no-vector-p1", 1, noVector, rocksDb);
        List<Long> verdicts = TopicRecords.timestamps(kafka.bootstrapServers(), out.verdicts());
        return new Result(runs, verdicts.size(), TopicRecords.steadyRate(verdicts));
    }
}

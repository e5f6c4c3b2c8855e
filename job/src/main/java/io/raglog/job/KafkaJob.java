package io.raglog.job;

import io.raglog.ingest.RawMessage;
import io.raglog.job.io.KafkaIO;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The whole job between Kafka topics: what {@code run} deploys and {@code demo} runs in process. */
public final class KafkaJob {

    /**
     * How the job talks to Kafka.
     *
     * @param bounded read the input topics up to their current end, then finish (demo, tests)
     * @param guarantee for the debugging queue and the verdicts; exactly-once needs checkpointing
     * @param clientProperties passed to every Kafka client (security.protocol, sasl.*, ssl.*)
     */
    public record Connection(String bootstrap, Topics topics, String groupId, boolean bounded,
            DeliveryGuarantee guarantee, Properties clientProperties) {}

    private KafkaJob() {}

    /**
     * Transactional ids are per job (its consumer group) and sink: two raglog jobs on one Kafka cluster must not
     * fence each other's transactions.
     */
    private static String txn(Connection kafka, String sink) {
        return kafka.groupId() + "-" + sink;
    }

    public static ScoredTopology.Streams wire(StreamExecutionEnvironment env, Connection kafka, JobSettings settings) {
        Properties props = kafka.clientProperties() == null ? new Properties() : kafka.clientProperties();
        Topics topics = kafka.topics();
        var watermarks = KafkaIO.recordTimeWatermarks(settings.topology().maxOutOfOrder(),
                settings.topology().sourceIdleness());
        DataStream<RawMessage> calls =
                KafkaIO.source(env, kafka.bootstrap(), topics.calls(), kafka.groupId(), kafka.bounded(), watermarks, props);
        DataStream<RawMessage> otlp =
                KafkaIO.source(env, kafka.bootstrap(), topics.otlp(), kafka.groupId(), kafka.bounded(), watermarks, props);
        ScoredTopology.Streams out = ScoredTopology.build(calls, otlp, settings);

        DeliveryGuarantee g = kafka.guarantee();
        out.runs().sinkTo(KafkaIO.<Run>sink(kafka.bootstrap(), topics.runs(), Run::runId, g, txn(kafka, "runs"), props))
                .uid("sink-runs").name("kafka " + topics.runs());
        out.deadLetters().sinkTo(KafkaIO.<DeadLetter>sink(kafka.bootstrap(), topics.deadLetters(), DeadLetter::origin,
                        g, txn(kafka, "dlq"), props))
                .uid("sink-dead-letters").name("kafka " + topics.deadLetters());
        out.verdicts().sinkTo(KafkaIO.<Verdict>sink(kafka.bootstrap(), topics.verdicts(), Verdict::runId, g,
                        txn(kafka, "verdicts"), props))
                .uid("sink-verdicts").name("kafka " + topics.verdicts());
        out.faults().sinkTo(KafkaIO.<Verdict>sink(kafka.bootstrap(), topics.faults(), Verdict::runId, g,
                        txn(kafka, "faults"), props))
                .uid("sink-faults").name("kafka " + topics.faults() + " (debugging queue)");
        out.faultRates().sinkTo(KafkaIO.<FaultRate>sink(kafka.bootstrap(), topics.faultRates(), FaultRate::pipeline, g,
                        txn(kafka, "fault-rates"), props))
                .uid("sink-fault-rates").name("kafka " + topics.faultRates());
        return out;
    }
}

package io.raglog.job;

import io.raglog.ingest.RawMessage;
import io.raglog.job.io.KafkaIO;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Run;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The topology between Kafka topics: what {@code run} deploys and {@code demo} runs in process. */
public final class KafkaJob {

    private KafkaJob() {}

    /**
     * @param bounded read the input topics up to their current end, then finish (demo, tests)
     */
    public static void wire(StreamExecutionEnvironment env, String bootstrap, Topics topics, String groupId,
            boolean bounded, DeliveryGuarantee guarantee, TopologySettings settings) {
        Properties none = new Properties();
        var watermarks = KafkaIO.recordTimeWatermarks(settings.maxOutOfOrder(), settings.sourceIdleness());
        DataStream<RawMessage> calls =
                KafkaIO.source(env, bootstrap, topics.calls(), groupId, bounded, watermarks, none);
        DataStream<RawMessage> otlp = KafkaIO.source(env, bootstrap, topics.otlp(), groupId, bounded, watermarks, none);
        RaglogTopology.Streams out = RaglogTopology.build(calls, otlp, settings);
        out.runs().sinkTo(KafkaIO.<Run>sink(bootstrap, topics.runs(), Run::runId, guarantee, "raglog-runs", none))
                .uid("sink-runs").name("kafka " + topics.runs());
        out.deadLetters().sinkTo(KafkaIO.<DeadLetter>sink(bootstrap, topics.deadLetters(), DeadLetter::origin,
                        guarantee, "raglog-dlq", none))
                .uid("sink-dead-letters").name("kafka " + topics.deadLetters());
    }
}

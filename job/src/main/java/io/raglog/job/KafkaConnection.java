package io.raglog.job;

import io.raglog.job.io.KafkaIO;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Verdict;
import io.raglog.sink.EvaluationRecordSerializer;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the job talks to Kafka, and the pipeline's Kafka ends: what {@code run} deploys and the demo runs in process.
 *
 * @param bounded read the input topics up to their current end, then finish (demo, tests)
 * @param guarantee for the debugging queue and the verdicts; exactly-once needs checkpointing
 * @param clientProperties passed to every Kafka client (security.protocol, sasl.*, ssl.*)
 */
public record KafkaConnection(String bootstrap, Topics topics, String groupId, boolean bounded,
        DeliveryGuarantee guarantee, Properties clientProperties) {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConnection.class);

    private Properties properties() {
        return clientProperties == null ? new Properties() : clientProperties;
    }

    /** The whole pipeline from these topics to these topics. */
    public void wire(StreamExecutionEnvironment env, JobSettings settings) {
        createThresholdsTopicIfMissing();
        RaglogPipeline.wire(sources(env, settings), sinks(), settings);
    }

    /**
     * The threshold overrides' topic, compacted, before the job starts, so that an override published later is read.
     * A cluster that forbids creating topics has it made by its operators; the job starts anyway and says what to do.
     */
    public void createThresholdsTopicIfMissing() {
        try {
            KafkaIO.createCompactedTopicIfMissing(bootstrap, topics.thresholds(), properties());
        } catch (IllegalStateException e) {
            LOG.warn("{}. Create it (cleanup.policy=compact): until it exists every run is scored with the bundle's "
                    + "thresholds.", e.getMessage());
        }
    }

    /**
     * The calls and trace topics, event time from record timestamps with watermarks per partition; the threshold
     * overrides from the start of their compacted topic.
     */
    public RaglogPipeline.Sources sources(StreamExecutionEnvironment env, TopologySettings settings) {
        var watermarks = KafkaIO.recordTimeWatermarks(settings.maxOutOfOrder(), settings.sourceIdleness());
        return new RaglogPipeline.Sources(
                KafkaIO.source(env, bootstrap, topics.calls(), groupId, bounded, watermarks, properties()),
                KafkaIO.source(env, bootstrap, topics.otlp(), groupId, bounded, watermarks, properties()))
                .withThresholds(KafkaIO.controlSource(env, bootstrap, topics.thresholds(), groupId, bounded,
                        properties()));
    }

    /**
     * The calls, trace and, when the job joins feedback, feedback topics. Feedback's event time is its record
     * timestamp too: a front end writes the record when the user gives it. Like the calls topics, the feedback topic
     * must exist when the job starts ({@code feedback.enabled: false} reads none); an idle one holds back no
     * watermark (the sources' idleness).
     */
    public RaglogPipeline.Sources sources(StreamExecutionEnvironment env, JobSettings settings) {
        RaglogPipeline.Sources calls = sources(env, settings.topology());
        if (settings.feedback() == null) {
            return calls;
        }
        TopologySettings t = settings.topology();
        var watermarks = KafkaIO.recordTimeWatermarks(t.maxOutOfOrder(), t.sourceIdleness());
        return calls.withFeedback(
                KafkaIO.source(env, bootstrap, topics.feedback(), groupId, bounded, watermarks, properties()));
    }

    /** Every output to its topic, keyed so that a run's records share a partition. */
    public RaglogPipeline.Sinks sinks() {
        return new RaglogPipeline.Sinks() {
            @Override
            public void runs(DataStream<Run> runs) {
                runs.sinkTo(KafkaIO.<Run>sink(bootstrap, topics.runs(), Run::runId, guarantee, txn("runs"),
                                properties()))
                        .uid("sink-runs").name("kafka " + topics.runs());
            }

            @Override
            public void deadLetters(DataStream<DeadLetter> deadLetters) {
                deadLetters.sinkTo(KafkaIO.<DeadLetter>sink(bootstrap, topics.deadLetters(), DeadLetter::origin,
                                guarantee, txn("dlq"), properties()))
                        .uid("sink-dead-letters").name("kafka " + topics.deadLetters());
            }

            @Override
            public void verdicts(DataStream<Verdict> verdicts) {
                verdicts.sinkTo(KafkaIO.<Verdict>sink(bootstrap, topics.verdicts(), Verdict::runId, guarantee,
                                txn("verdicts"), properties()))
                        .uid("sink-verdicts").name("kafka " + topics.verdicts());
            }

            @Override
            public void faults(DataStream<Verdict> faults) {
                faults.sinkTo(KafkaIO.<Verdict>sink(bootstrap, topics.faults(), Verdict::runId, guarantee,
                                txn("faults"), properties()))
                        .uid("sink-faults").name("kafka " + topics.faults() + " (debugging queue)");
            }

            @Override
            public void faultRates(DataStream<FaultRate> faultRates) {
                faultRates.sinkTo(KafkaIO.<FaultRate>sink(bootstrap, topics.faultRates(), FaultRate::pipeline,
                                guarantee, txn("fault-rates"), properties()))
                        .uid("sink-fault-rates").name("kafka " + topics.faultRates());
            }

            @Override
            public void drift(DataStream<EmbeddingDrift> drift) {
                drift.sinkTo(KafkaIO.<EmbeddingDrift>sink(bootstrap, topics.drift(), EmbeddingDrift::pipeline,
                                guarantee, txn("drift"), properties()))
                        .uid("sink-drift").name("kafka " + topics.drift());
            }

            @Override
            public void runFeedback(DataStream<RunFeedback> runFeedback) {
                // keyed by pipeline: a record that found no run has no run id, and a pipeline's records stay in order
                runFeedback.sinkTo(KafkaIO.<RunFeedback>sink(bootstrap, topics.runFeedback(), RunFeedback::pipeline,
                                guarantee, txn("run-feedback"), properties()))
                        .uid("sink-run-feedback").name("kafka " + topics.runFeedback());
            }

            @Override
            public void evaluations(DataStream<Verdict> verdicts) {
                verdicts.sinkTo(KafkaIO.sink(bootstrap, new EvaluationRecordSerializer(topics.evaluations()),
                                guarantee, txn("evaluations"), properties()))
                        .uid("sink-evaluations").name("kafka " + topics.evaluations() + " (otlp_proto)");
            }
        };
    }

    /**
     * Transactional ids are per job (its consumer group) and sink: two raglog jobs on one Kafka cluster must not
     * fence each other's transactions.
     */
    private String txn(String sink) {
        return groupId + "-" + sink;
    }
}

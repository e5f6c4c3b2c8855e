package io.raglog.job;

import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Verdict;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.ElasticsearchEmitter;
import io.raglog.sink.elasticsearch.ElasticsearchSink;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The debugging queue, the fault rates and the embedding drift records in Elasticsearch, beside Kafka: one document
 * per queued run (id = run id; with its user feedback once that joined), one per pipeline × stage × window, and one
 * per drift event (pipeline, index, kind, confirming run; index {@code raglog-drift} beside {@code raglog-faults}), so
 * a replay after a failure overwrites and never duplicates.
 */
public final class ElasticsearchOutputs {

    /** How long job start waits for Elasticsearch to accept the index templates. */
    static final Duration TEMPLATE_PATIENCE = Duration.ofMinutes(2);

    private ElasticsearchOutputs() {}

    /**
     * Builds the connection from the configuration ({@link ElasticsearchOutputOptions}); secrets come from the
     * environment variables it names.
     */
    public static ElasticsearchConnection connection(ReadableConfig c, Map<String, String> env) {
        ElasticsearchConnection.Builder b = ElasticsearchConnection.builder()
                .setHosts(ElasticsearchOutputOptions.HOSTS.get(c));
        b.setCredentialsFromEnvironment(ElasticsearchOutputOptions.API_KEY_ENV.get(c),
                ElasticsearchOutputOptions.USERNAME.get(c), ElasticsearchOutputOptions.PASSWORD_ENV.get(c), env);
        String ca = ElasticsearchOutputOptions.CA_CERTIFICATE.get(c);
        if (ca != null) {
            b.setCaCertificate(Path.of(ca));
        }
        return b.build();
    }

    /** Both indices, connected as the configuration says. */
    public static RaglogPipeline.Sinks installed(ReadableConfig c, Map<String, String> env) {
        return installed(connection(c, env), ElasticsearchOutputOptions.FAULTS_INDEX.get(c),
                ElasticsearchOutputOptions.FAULT_RATES_INDEX.get(c));
    }

    /** Installs the index templates (idempotent; at wiring time, so a bad connection fails the start), then sinks. */
    public static RaglogPipeline.Sinks installed(ElasticsearchConnection connection, String faultsIndex,
            String faultRatesIndex) {
        IndexTemplates.installAll(connection, TEMPLATE_PATIENCE);
        return new RaglogPipeline.Sinks() {
            @Override
            public void faults(DataStream<Verdict> faults) {
                faults.sinkTo(ElasticsearchSink.<Verdict>builder()
                                .setConnection(connection)
                                .setEmitter(ElasticsearchEmitter.json(faultsIndex, Verdict::runId))
                                .build())
                        .uid("es-faults").name("elasticsearch " + faultsIndex);
            }

            /**
             * One document per queued run, id = run id: when the job joins feedback, the documents come from the join,
             * which writes each run's as it should now read (with its feedback), so a run's writes stay in order.
             */
            @Override
            public void faults(DataStream<Verdict> queue, DataStream<Verdict> documents) {
                faults(documents);
            }

            @Override
            public void faultRates(DataStream<FaultRate> faultRates) {
                faultRates.sinkTo(ElasticsearchSink.<FaultRate>builder()
                                .setConnection(connection)
                                .setEmitter(ElasticsearchEmitter.json(faultRatesIndex, FaultRate::documentId))
                                .build())
                        .uid("es-fault-rates").name("elasticsearch " + faultRatesIndex);
            }

            @Override
            public void drift(DataStream<EmbeddingDrift> drift) {
                String index = driftIndex(faultsIndex);
                drift.sinkTo(ElasticsearchSink.<EmbeddingDrift>builder()
                                .setConnection(connection)
                                .setEmitter(ElasticsearchEmitter.json(index, EmbeddingDrift::documentId))
                                .build())
                        .uid("es-drift").name("elasticsearch " + index);
            }
        };
    }

    /** The drift index, named beside the faults index: {@code raglog-faults} gives {@code raglog-drift}. */
    static String driftIndex(String faultsIndex) {
        return faultsIndex.endsWith("faults") ? faultsIndex.substring(0, faultsIndex.length() - "faults".length())
                + "drift" : faultsIndex + "-drift";
    }
}

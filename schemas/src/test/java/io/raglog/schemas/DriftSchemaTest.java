package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DriftSchemaTest {

    private static Set<ValidationMessage> validate(String file, Object record) throws Exception {
        try (InputStream in = DriftSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in)).validate(Json.MAPPER.valueToTree(record));
        }
    }

    static EmbeddingDrift sampleDrift() {
        return new EmbeddingDrift(EmbeddingDrift.SCHEMA_V1, "support-assistant", "support-assistant",
                EmbeddingDrift.MODEL_CHANGED, "run-1", Instant.parse("2026-11-29T10:00:00Z"),
                new EmbeddingDrift.Side("text-embedding-3-small", 384, 120, 0.61, 0.07),
                new EmbeddingDrift.Side("text-embedding-ada-002", 384, 3, 0.18, null),
                "pipeline support-assistant changed its query embedding model", "re-embed the index");
    }

    @Test
    void encodedDriftValidatesAgainstItsSchemaAndRoundTrips() throws Exception {
        EmbeddingDrift drift = sampleDrift();
        assertThat(validate("drift.v1.json", drift)).isEmpty();
        assertThat(Json.read(Json.write(drift), EmbeddingDrift.class)).isEqualTo(drift);
        assertThat(drift.documentId()).isEqualTo("support-assistant|support-assistant|query_model_changed|run-1");
    }

    @Test
    void schemaRejectsAnUnknownKind() throws Exception {
        EmbeddingDrift d = sampleDrift();
        EmbeddingDrift odd = new EmbeddingDrift(d.schema(), d.pipeline(), d.index(), "weather", d.runId(),
                d.detectedAt(), d.before(), d.after(), d.text(), d.repairHint());
        assertThat(validate("drift.v1.json", odd)).isNotEmpty();
    }

    @Test
    void aRunWithAnEmbeddingMismatchValidatesAgainstTheRunSchema() throws Exception {
        EmbeddingMismatch m = new EmbeddingMismatch("squad_chunks", "text-embedding-3-small", 384,
                "text-embedding-ada-002", 384, EmbeddingMismatch.SEEN, "the question was embedded with ...");
        Run run = ContractSchemaTest.sampleRun(false).withEmbeddingMismatch(m);
        assertThat(validate("run.v3.json", run)).isEmpty();
        assertThat(Json.read(Json.write(run), Run.class)).isEqualTo(run);
        // absent on a run without one: the runs topic's records do not change
        assertThat(Json.write(ContractSchemaTest.sampleRun(false))).doesNotContain("embedding_mismatch");
    }
}

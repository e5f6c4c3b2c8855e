package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FaultRateSchemaTest {

    private static java.util.Set<com.networknt.schema.ValidationMessage> validate(FaultRate rate) throws Exception {
        return validate(rate, "fault-rate.v4.json");
    }

    private static java.util.Set<com.networknt.schema.ValidationMessage> validate(FaultRate rate, String file)
            throws Exception {
        try (InputStream in = FaultRateSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in)).validate(Json.MAPPER.valueToTree(rate));
        }
    }

    @Test
    void encodedFaultRateValidatesAgainstItsSchema() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V4, "support-bot", Stage.RERANK,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 40, 10, 2, 0.2);
        assertThat(validate(rate)).isEmpty();
        assertThat(Json.read(Json.write(rate), FaultRate.class)).isEqualTo(rate);
    }

    @Test
    void aWindowWithNothingCheckedHasNoRate() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V4, "support-bot", Stage.REWRITE,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 3, 0, 0, null);
        assertThat(validate(rate)).isEmpty();
    }

    @Test
    void schemaRejectsARateAboveOne() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V4, "p", Stage.EMBED,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 1, 1, 2, 2.0);
        assertThat(validate(rate)).isNotEmpty();
    }

    @Test
    void theKnowledgeGapSeriesIsAV2SeriesAndV1RecordsStillRead() throws Exception {
        FaultRate gaps = new FaultRate(FaultRate.SCHEMA_V4, "docs-qa", Verdict.KNOWLEDGE_GAP,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 50, 12, 3, 0.25);
        assertThat(validate(gaps)).isEmpty();
        assertThat(Json.read(Json.write(gaps), FaultRate.class)).isEqualTo(gaps);
        assertThat(gaps.documentId()).isEqualTo("docs-qa|knowledge_gap|" + gaps.windowStart().toEpochMilli());
        String v1 = "{\"schema\":\"raglog.fault-rate/v1\",\"pipeline\":\"p\",\"stage\":\"rerank\","
                + "\"window_start\":\"2026-11-29T10:00:00Z\",\"window_end\":\"2026-11-29T10:01:00Z\","
                + "\"runs_seen\":4,\"runs_checked\":2,\"runs_flagged\":1,\"rate\":0.5}";
        FaultRate read = Json.read(v1, FaultRate.class);
        assertThat(read.stage()).isEqualTo(Stage.RERANK.id());
        assertThat(validate(read, "fault-rate.v1.json")).isEmpty();
        FaultRate v1Gap = new FaultRate(FaultRate.SCHEMA_V1, "p", Verdict.KNOWLEDGE_GAP, gaps.windowStart(),
                gaps.windowEnd(), 1, 1, 0, 0.0);
        assertThat(validate(v1Gap, "fault-rate.v1.json")).as("v1 knows no knowledge_gap series").isNotEmpty();
    }

    @Test
    void theEmbeddingMismatchSeriesIsAV4Series() throws Exception {
        FaultRate mismatches = new FaultRate(FaultRate.SCHEMA_V4, "search-answers", FaultRate.EMBEDDING_MISMATCH,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 40, 40, 34, 0.85);
        assertThat(validate(mismatches)).isEmpty();
        assertThat(Json.read(Json.write(mismatches), FaultRate.class)).isEqualTo(mismatches);
        FaultRate v3 = new FaultRate(FaultRate.SCHEMA_V3, "search-answers", FaultRate.EMBEDDING_MISMATCH,
                mismatches.windowStart(), mismatches.windowEnd(), 40, 40, 34, 0.85);
        assertThat(validate(v3, "fault-rate.v3.json")).as("v3 knows no embedding_mismatch series").isNotEmpty();
    }
}

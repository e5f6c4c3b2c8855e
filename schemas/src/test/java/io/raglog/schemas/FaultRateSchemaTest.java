package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FaultRateSchemaTest {

    private static java.util.Set<com.networknt.schema.ValidationMessage> validate(FaultRate rate) throws Exception {
        try (InputStream in = getResource()) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in)).validate(Json.MAPPER.valueToTree(rate));
        }
    }

    private static InputStream getResource() {
        return FaultRateSchemaTest.class.getResourceAsStream("/schemas/fault-rate.v1.json");
    }

    @Test
    void encodedFaultRateValidatesAgainstItsSchema() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V1, "support-bot", Stage.RERANK,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 40, 10, 2, 0.2);
        assertThat(validate(rate)).isEmpty();
        assertThat(Json.read(Json.write(rate), FaultRate.class)).isEqualTo(rate);
    }

    @Test
    void aWindowWithNothingCheckedHasNoRate() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V1, "support-bot", Stage.REWRITE,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 3, 0, 0, null);
        assertThat(validate(rate)).isEmpty();
    }

    @Test
    void schemaRejectsARateAboveOne() throws Exception {
        FaultRate rate = new FaultRate(FaultRate.SCHEMA_V1, "p", Stage.EMBED,
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:01:00Z"), 1, 1, 2, 2.0);
        assertThat(validate(rate)).isNotEmpty();
    }
}

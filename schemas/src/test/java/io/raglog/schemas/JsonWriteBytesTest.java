package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Json#writeBytes} reuses its thread's buffer: what it writes must stay exactly what the mapper writes. */
class JsonWriteBytesTest {

    @Test
    void shouldWriteWhatTheMapperWritesWhateverTheBufferHeldBefore() throws Exception {
        List<Object> documents = List.of(
                Map.of("text", "x".repeat(40_000), "n", 1.5),
                Map.of("a", "b"),
                Map.of("big", "é".repeat(700_000)), // past the kept buffer's 1 MB: let go after
                List.of(1, 2, 3),
                Map.of("text", "ü ß ✓ " + "y".repeat(20_000)));
        for (int pass = 0; pass < 2; pass++) {
            for (Object document : documents) {
                assertThat(Json.writeBytes(document)).isEqualTo(Json.MAPPER.writeValueAsBytes(document));
            }
        }
    }
}

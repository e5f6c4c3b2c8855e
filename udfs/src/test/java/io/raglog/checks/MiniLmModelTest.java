package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a switch to the fp32 model would rest on: its rows are computed independently under the attention mask, so a
 * text batched with others of any length keeps its vector. Measured bit for bit on 1,500 run texts
 * ({@code EmbeddingBatchCpu}); held here within 1e-6 a dimension, float rounding's reach, against the quantized
 * model's 0.04 when batched (docs/benchmarks.md).
 */
class MiniLmModelTest {

    private static final List<String> TEXTS = List.of("census",
            "What year did the first census of the United States happen?",
            "first US census year",
            "The Normans gave their name to Normandy, a region in France. They were descended from Norse raiders.",
            String.join(" ", Collections.nCopies(30, "The Normans gave their name to Normandy, a region in France.")),
            "Acme Corp operating cash flow 2023");

    @Test
    void shouldGiveAnFp32TextTheSameVectorWhateverItIsBatchedWith() {
        try (MiniLmEmbedder alone = new MiniLmEmbedder(MiniLmModel.FP32, 1, MiniLmEmbedder.DEFAULT_MAX_WINDOWS, 1);
                MiniLmEmbedder batched = new MiniLmEmbedder(MiniLmModel.FP32, 8, MiniLmEmbedder.DEFAULT_MAX_WINDOWS,
                        1)) {
            assertThat(batched.id()).isEqualTo("all-minilm-l6-v2");
            List<float[]> together = batched.embed(TEXTS);
            List<String> reversed = new ArrayList<>(TEXTS);
            Collections.reverse(reversed);
            List<float[]> otherNeighbours = batched.embed(reversed);
            for (int i = 0; i < TEXTS.size(); i++) {
                float[] own = alone.embed(List.of(TEXTS.get(i))).get(0);
                assertThat(together.get(i)).as(TEXTS.get(i))
                        .containsExactly(own, org.assertj.core.data.Offset.offset(1e-6f));
                assertThat(otherNeighbours.get(TEXTS.size() - 1 - i)).as(TEXTS.get(i))
                        .containsExactly(own, org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }

    @Test
    void shouldShipTheQuantizedModel() {
        try (MiniLmEmbedder shipped = new MiniLmEmbedder(1)) {
            assertThat(shipped.id()).isEqualTo(MiniLmEmbedder.ID).isEqualTo(MiniLmModel.SHIPPED.id())
                    .isEqualTo("all-minilm-l6-v2-q");
        }
    }
}

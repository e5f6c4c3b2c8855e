package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The JVM's shared model and cache: what the benchmarks' account reads of it. */
class SharedEmbedderTest {

    @Test
    void shouldCountTheTextsSentToTheModelOncePerTextUntilForgotten() {
        CachedEmbedder embedder = SharedEmbedder.acquire(100);
        try {
            SharedEmbedder.forgetVectors();
            long before = SharedEmbedder.misses();

            embedder.embed(List.of("revenue grew in 2022", "cash flow in 2023", "revenue grew in 2022"));
            assertThat(SharedEmbedder.misses() - before).as("a batch's repeat is looked up once").isEqualTo(2);

            embedder.embed(List.of("cash flow in 2023"));
            assertThat(SharedEmbedder.misses() - before).as("a cached text costs the model nothing").isEqualTo(2);

            SharedEmbedder.forgetVectors();
            embedder.embed(List.of("cash flow in 2023"));
            assertThat(SharedEmbedder.misses() - before).as("forgotten vectors are embedded again").isEqualTo(3);
        } finally {
            SharedEmbedder.release();
        }
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real model, loaded from the Maven artifact with no download. */
class EmbedderTest {

    private static MiniLmEmbedder model;

    @BeforeAll
    static void load() {
        model = new MiniLmEmbedder();
    }

    @AfterAll
    static void close() {
        model.close();
    }

    private static double sim(String a, String b) {
        List<float[]> v = model.embed(List.of(a, b));
        return Embedder.cosine(v.get(0), v.get(1));
    }

    @Test
    void shouldRankAParaphraseAboveAnUnrelatedSentence() {
        String q = "What was the operating cash flow of Acme Corp in 2023?";
        double paraphrase = sim(q, "How much cash did Acme Corp generate from operations in 2023?");
        double unrelated = sim(q, "The weather in Lisbon is mild in spring, with occasional rain.");
        assertThat(paraphrase).isGreaterThan(unrelated + 0.3);
        assertThat(sim(q, q)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void shouldReturnUnitVectorsOf384Dimensions() {
        float[] v = model.embed(List.of("cash flow")).get(0);
        assertThat(v).hasSize(384);
        assertThat(Embedder.cosine(v, v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void shouldGiveATextTheSameVectorWhateverItIsEmbeddedWith() {
        List<String> texts = List.of("Acme Corp operating cash flow 2023", "revenue grew 12% in 2022",
                "a much longer sentence about the weather in Lisbon in spring, with rain showers now and then");
        List<float[]> batch = model.embed(texts);
        for (int i = 0; i < texts.size(); i++) {
            // bit for bit: one window an ONNX call, so no text shares the quantized model's per-batch scales
            assertThat(batch.get(i)).containsExactly(model.embed(List.of(texts.get(i))).get(0));
        }
    }

    @Test
    void shouldGiveTheSameVectorsOnTwoIntraOpThreads() {
        List<String> texts = List.of("Acme Corp operating cash flow 2023", String.join(" ",
                Collections.nCopies(40, "The Normans gave their name to Normandy, a region in France.")));
        try (MiniLmEmbedder twoThreads = new MiniLmEmbedder(2)) {
            for (String text : texts) {
                float[] one = model.embed(List.of(text)).get(0);
                float[] two = twoThreads.embed(List.of(text)).get(0);
                for (int i = 0; i < one.length; i++) {
                    assertThat(two[i]).as("dimension %d", i)
                            .isCloseTo(one[i], org.assertj.core.data.Offset.offset(1e-6f));
                }
            }
        }
    }

    @Test
    void shouldGiveEachThreadItsOwnVectorsWhenThreadsShareTheModel() throws Exception {
        // the model writes its output into a buffer of the calling thread's: slots' embedding threads share one model
        List<String> texts = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            texts.add("passage " + i + " about the Normans, who gave their name to Normandy in the year " + (900 + i)
                    + (i % 3 == 0 ? String.join(" ", Collections.nCopies(30, " and the duke held the land.")) : ""));
        }
        List<float[]> alone = new java.util.ArrayList<>();
        for (String t : texts) {
            alone.add(model.embed(List.of(t)).get(0));
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            List<java.util.concurrent.Future<List<float[]>>> runs = new java.util.ArrayList<>();
            for (int thread = 0; thread < 3; thread++) {
                int offset = thread * 7; // each thread starts elsewhere, so their calls overlap on different texts
                runs.add(pool.submit(() -> {
                    List<float[]> out = new java.util.ArrayList<>(Collections.nCopies(texts.size(), (float[]) null));
                    for (int k = 0; k < texts.size(); k++) {
                        int i = (k + offset) % texts.size();
                        out.set(i, model.embed(List.of(texts.get(i))).get(0));
                    }
                    return out;
                }));
            }
            for (var run : runs) {
                List<float[]> concurrent = run.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(concurrent.get(i)).as("text %d", i).containsExactly(alone.get(i));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldStillSeeTheEndOfAPassageLongerThanOneWindow() {
        String filler = String.join(" ", Collections.nCopies(60, "The committee met and discussed the agenda."));
        assertThat(model.tokenCount(filler)).isGreaterThan(3 * MiniLmEmbedder.WINDOW_TOKENS);
        String answer = "Acme Corp reported operating cash flow of $4.1 billion in 2023.";
        String q = "What was the operating cash flow of Acme Corp in 2023?";
        // Cut at 128 tokens, the answer at the end would be invisible and both passages would embed the same.
        assertThat(sim(q, filler + " " + answer)).isGreaterThan(sim(q, filler) + 0.05);
    }

    @Test
    void shouldServeRepeatedPassagesFromTheCache() {
        CachedEmbedder cached = new CachedEmbedder(model, 100);
        cached.embed(List.of("passage one", "passage two"));
        List<float[]> again = cached.embed(List.of("passage two", "passage one", "passage two"));
        assertThat(cached.misses()).isEqualTo(2);
        assertThat(cached.hits()).isEqualTo(2);
        assertThat(again).hasSize(3);
        assertThat(again.get(0)).isSameAs(again.get(2));
    }

    @Test
    void shouldUnpackNativesIntoTheConfiguredCacheNotTheHomeDirectory() {
        String cacheDir = System.getProperty("DJL_CACHE_DIR");
        assertThat(cacheDir).as("set by surefire").isNotNull();
        assertThat(Files.isDirectory(Path.of(cacheDir))).isTrue();
    }
}

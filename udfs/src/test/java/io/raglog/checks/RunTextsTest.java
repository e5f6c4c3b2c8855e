package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The passages' texts and ids are what the streams they replace gave. */
class RunTextsTest {

    @Test
    void shouldGiveTheTextsAndIdsTheFormerStreamsGave() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            List<Passage> passages = new ArrayList<>();
            for (int n = random.nextInt(40); n > 0; n--) {
                // ids repeat, texts go missing, and the ids' set grows past the default table's
                String text = random.nextInt(5) == 0 ? null : "t" + n;
                passages.add(new Passage("p" + random.nextInt(30), text, null, null));
            }
            List<Passage> linked = new LinkedList<>(passages);

            assertThat(RunTexts.texts(passages)).isEqualTo(referenceTexts(passages));
            assertThat(RunTexts.texts(linked)).isEqualTo(referenceTexts(passages));
            assertThat(new ArrayList<>(RunTexts.ids(passages))).isEqualTo(new ArrayList<>(referenceIds(passages)));
            assertThat(new ArrayList<>(RunTexts.ids(linked))).isEqualTo(new ArrayList<>(referenceIds(passages)));
            List<Passage> withNulls = new ArrayList<>(passages);
            withNulls.add(random.nextInt(withNulls.size() + 1), null);
            assertThat(new ArrayList<>(RunTexts.ids(withNulls))).isEqualTo(new ArrayList<>(referenceIds(passages)));
        }
        assertThat(RunTexts.ids(null)).isEmpty();
    }

    @Test
    void shouldNotLetTheTextsBeChanged() {
        List<String> texts = RunTexts.texts(List.of(new Passage("a", "x", null, null)));

        assertThatThrownBy(() -> texts.set(0, "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> texts.add("y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldCountTheSentenceACutFallsInAsLostWhole() {
        String text = "A probabilistic Turing machine has random bits. Algorithms that use random bits are called"
                + " randomized algorithms. They often run faster.";
        Passage passage = new Passage("p1", text, null, 1);
        int inside = text.indexOf("use random");
        int between = text.indexOf("They");

        RunTexts.HandedOn cutInside = new RunTexts.HandedOn(passage,
                new PassageFate("p1", 1, PassageFate.Fate.CUT, 1, text.length(), inside));
        RunTexts.HandedOn cutBetween = new RunTexts.HandedOn(passage,
                new PassageFate("p1", 1, PassageFate.Fate.CUT, 1, text.length(), between));
        RunTexts.HandedOn dropped = new RunTexts.HandedOn(passage,
                new PassageFate("p1", 1, PassageFate.Fate.DROPPED, null, text.length(), 0));

        assertThat(cutInside.lostText()).isEqualTo("use random bits are called randomized algorithms. They often run"
                + " faster.");
        assertThat(cutInside.lostSentences()).isEqualTo("Algorithms that use random bits are called randomized"
                + " algorithms. They often run faster.");
        assertThat(cutBetween.lostSentences()).isEqualTo("They often run faster.");
        assertThat(dropped.lostSentences()).isEqualTo(text);
    }

    @Test
    void shouldReadAnExtractedPassagesLostSentencesAsThoseNoExtractHolds() {
        String text = "A probabilistic Turing machine has random bits. Algorithms that use random bits are called"
                + " randomized algorithms. They often run faster.\nSome fail with a small probability.";
        Passage passage = new Passage("p1", text, null, 1);
        // a compressor kept the second and the last sentence, joined on one line, and cut the third short
        String extract = "Algorithms that use random bits are called randomized algorithms.";
        List<Passage> context = List.of(new Passage("p0", "Another passage.", null, 1),
                new Passage("p1", extract, null, 2), new Passage("p1", "Some fail with a small  probability. They",
                        null, 3));

        RunTexts.HandedOn extracted = RunTexts.HandedOn.extracted(passage,
                new PassageFate("p1", 1, PassageFate.Fate.EXTRACTED, 2, text.length(), extract.length() + 40),
                context);

        assertThat(extracted.lost()).isTrue();
        assertThat(extracted.keptText()).isEqualTo(extract + " Some fail with a small  probability. They");
        assertThat(extracted.keptSentences()).isEqualTo(extract + " Some fail with a small probability.");
        assertThat(extracted.lostSentences()).isEqualTo("A probabilistic Turing machine has random bits. They often"
                + " run faster.");
        assertThat(extracted.lostText()).isEqualTo(extracted.lostSentences());
        assertThat(extracted.cutSentence()).isEmpty();
    }

    /** The former {@code texts}, kept here as the reference. */
    private static List<String> referenceTexts(List<Passage> passages) {
        return passages.stream().map(p -> p.text() == null ? "" : p.text()).toList();
    }

    /** The former {@code ids}, kept here as the reference. */
    private static Set<String> referenceIds(List<Passage> passages) {
        Set<String> ids = new LinkedHashSet<>();
        passages.stream().filter(Objects::nonNull).forEach(p -> ids.add(p.id()));
        return ids;
    }
}

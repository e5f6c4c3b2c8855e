package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link EmbedRules#closest} counts the union rather than building it: the same source as the sets' Jaccard. */
class EmbedRulesClosestTest {

    private static final String[] WORDS = {"the", "year", "of", "war", "ended", "in", "1945", "when", "did", "who",
        "won", "treaty", "paris", "signed", "what", "is", "a", "an", "end", "years"};

    /** The plain version: the union built as a set. */
    private static String closestBySets(List<String> words, List<String> sources) {
        Set<String> a = new HashSet<>(words);
        String best = sources.get(0);
        double bestScore = -1;
        for (String s : sources) {
            Set<String> b = new HashSet<>(Terms.words(s));
            Set<String> union = new HashSet<>(a);
            union.addAll(b);
            b.retainAll(a);
            double score = union.isEmpty() ? 0 : (double) b.size() / union.size();
            if (score > bestScore) {
                bestScore = score;
                best = s;
            }
        }
        return best;
    }

    private static String text(Random r, int maxWords) {
        int n = r.nextInt(maxWords + 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    @Test
    void shouldPickTheSameSourceAsTheSetsJaccard() {
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            List<String> words = Terms.words(text(r, 8));
            List<String> sources = new ArrayList<>();
            int n = 1 + r.nextInt(4);
            for (int j = 0; j < n; j++) {
                sources.add(r.nextInt(10) == 0 && !sources.isEmpty() ? sources.get(0) : text(r, 10));
            }
            assertThat(EmbedRules.closest(words, sources)).as("%s in %s", words, sources)
                    .isSameAs(closestBySets(words, sources));
        }
    }

    @Test
    void shouldPickTheFirstOfEqualsAndReadEmptyTexts() {
        assertThat(EmbedRules.closest(List.of(), List.of("", ""))).isEqualTo("");
        List<String> sources = List.of("war ended", "ended war", "peace");
        assertThat(EmbedRules.closest(Terms.words("war ended"), sources)).isSameAs(sources.get(0));
        assertThat(EmbedRules.closest(Terms.words("peace"), List.of("war"))).isEqualTo("war");
    }
}

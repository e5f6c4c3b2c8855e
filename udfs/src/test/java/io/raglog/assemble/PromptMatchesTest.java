package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Where passages sit in a prompt must be found exactly where the binary search over their openings found them. */
class PromptMatchesTest {

    /** {@link PromptMatches#find} as it was (main at 327b28c): a binary search over each cut passage's openings. */
    static List<PromptMatches.Match> plainFind(String prompt, List<Passage> passages, NormalisedTexts norm) {
        List<PromptMatches.Match> out = new ArrayList<>(passages.size());
        for (Passage p : passages) {
            String text = norm.text(p.text());
            int at = text.isEmpty() ? -1 : prompt.indexOf(text);
            if (at >= 0) {
                out.add(new PromptMatches.Match(at, text.length(), text.length()));
                continue;
            }
            int kept = plainKeptOpening(prompt, text);
            out.add(kept >= PromptMatches.MIN_KEPT_CHARS
                    ? new PromptMatches.Match(prompt.indexOf(text.substring(0, kept)), kept, text.length())
                    : new PromptMatches.Match(-1, 0, text.length()));
        }
        return out;
    }

    private static int plainKeptOpening(String prompt, String text) {
        int min = PromptMatches.MIN_KEPT_CHARS;
        if (text.length() < min || !prompt.contains(text.substring(0, min))) {
            return 0;
        }
        return plainLongestPrefixIn(prompt, text, min);
    }

    static int plainLongestPrefixIn(String prompt, String text, int found) {
        int lo = found;
        int hi = text.length();
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (prompt.contains(text.substring(0, mid))) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static final String[] PIECES = {"a", "b", " ", "ab", "the passage ", "σοφία ", "“q” ", "😀", "\uD83D",
        "\uDE00", "x\u2003y", "é", "  \n", "A"};

    @Test
    void shouldFindWhatTheBinarySearchFound() {
        Random random = new Random(41);
        NormalisedTexts norm = new NormalisedTexts();
        for (int round = 0; round < 3_000; round++) {
            List<Passage> passages = new ArrayList<>();
            for (int n = random.nextInt(5); n >= 0; n--) {
                passages.add(new Passage(null, text(random, random.nextInt(60)), null, passages.size() + 1));
            }
            // a prompt of passages whole, cut at any length, repeated, between random text; or random text alone
            StringBuilder prompt = new StringBuilder();
            for (int n = random.nextInt(6); n >= 0; n--) {
                String passage = norm.text(passages.get(random.nextInt(passages.size())).text());
                int cut = random.nextInt(3) == 0 ? passage.length() : random.nextInt(passage.length() + 1);
                prompt.append(text(random, random.nextInt(4))).append(passage, 0, cut);
            }
            String p = Texts.norm(prompt.toString());
            assertThat(PromptMatches.find(p, passages, norm)).as("%s", p).isEqualTo(plainFind(p, passages, norm));
            assertThat(PromptMatches.find(prompt.toString(), passages, norm))
                    .isEqualTo(plainFind(prompt.toString(), passages, norm));
        }
        // empty texts, an empty prompt
        List<Passage> edge = List.of(new Passage(null, "", null, 1), new Passage(null, "  \t ", null, 2),
                new Passage(null, "x".repeat(50), null, 3));
        for (String p : new String[] {"", " ", "x".repeat(49), "x".repeat(50), "y" + "x".repeat(45) + "y"}) {
            assertThat(PromptMatches.find(p, edge, norm)).isEqualTo(plainFind(p, edge, norm));
        }
    }

    @Test
    void shouldGiveTheLongestPrefixTheBinarySearchGave() {
        Random random = new Random(43);
        for (int i = 0; i < 20_000; i++) {
            String text = text(random, random.nextInt(12));
            String prompt = text(random, random.nextInt(20)) + text.substring(0, random.nextInt(text.length() + 1))
                    + text(random, random.nextInt(20));
            // the binary search's precondition: its first `found` chars are in the prompt
            int found = 0;
            while (found < text.length() && random.nextBoolean() && prompt.contains(text.substring(0, found + 1))) {
                found++;
            }
            assertThat(PromptMatches.longestPrefixIn(prompt, text, found)).as("%s in %s", text, prompt)
                    .isEqualTo(plainLongestPrefixIn(prompt, text, found));
        }
    }

    private static String text(Random random, int pieces) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pieces; i++) {
            b.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return b.toString();
    }
}

package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Where passages sit in a prompt must be found exactly where a plain search finds them: every place of the prompt tried
 * for each cut passage's opening.
 */
class PromptMatchesTest {

    /**
     * {@link PromptMatches#find} done plainly: the whole passages first; then for each other one, in order, every place
     * of the prompt compared char by char with its opening, the longest opening of {@link PromptMatches#MIN_KEPT_CHARS}
     * or more kept (the first on a tie) unless it starts inside a passage found before and ends, its trailing space
     * left out, no later than it does.
     */
    static List<PromptMatches.Match> plainFind(String prompt, List<Passage> passages, NormalisedTexts norm) {
        List<PromptMatches.Match> out = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Passage p : passages) {
            String text = norm.text(p.text());
            texts.add(text);
            int at = text.isEmpty() ? -1 : prompt.indexOf(text);
            out.add(at >= 0 ? new PromptMatches.Match(at, text.length(), text.length()) : null);
            if (at >= 0) {
                spans.add(new int[] {at, at + text.length()});
            }
        }
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) != null) {
                continue;
            }
            String text = texts.get(i);
            int longest = 0;
            int longestAt = -1;
            for (int at = 0; at < prompt.length(); at++) {
                int n = 0;
                while (at + n < prompt.length() && n < text.length() && prompt.charAt(at + n) == text.charAt(n)) {
                    n++;
                }
                int start = at;
                int end = prompt.substring(0, at + n).stripTrailing().length();
                boolean inside = spans.stream().anyMatch(s -> start >= s[0] && start < s[1] && end <= s[1]);
                if (n >= PromptMatches.MIN_KEPT_CHARS && n > longest && !inside) {
                    longest = n;
                    longestAt = at;
                }
            }
            out.set(i, new PromptMatches.Match(longestAt, longestAt < 0 ? 0 : longest, text.length()));
            if (longestAt >= 0) {
                spans.add(new int[] {longestAt, longestAt + longest});
            }
        }
        return out;
    }

    @Test
    void shouldNotReadAnotherPassagesPhraseAsACutButShouldReadAnOverlappingChunk() {
        NormalisedTexts norm = new NormalisedTexts();
        String first = "Steam turbines are generally more efficient than reciprocating piston type steam engines (for "
                + "outputs above several hundred horsepower), and have fewer moving parts.";
        String second = "Reciprocating piston type steam engines remained the dominant source of power until the "
                + "early 20th century.";
        String prompt = Texts.norm("Context:\n[1] " + first + "\n\nQuestion: why?");
        List<Passage> handed = List.of(new Passage("a", first, null, 1), new Passage("b", second, null, 2));
        assertThat(PromptMatches.find(prompt, handed, norm)).extracting(PromptMatches.Match::reached)
                .containsExactly(true, false);

        // chunks that overlap: the second's opening is the first's tail, and the budget cut the second after it
        String tail = "and have fewer moving parts, so they replaced reciprocating engines in power stations.";
        String chunk1 = "Steam turbines are generally more efficient than piston engines, " + tail;
        String chunk2 = tail + " Today most electric power is provided by steam turbines.";
        String cutPrompt = Texts.norm(chunk1 + " Today most electric");
        List<PromptMatches.Match> overlap = PromptMatches.find(cutPrompt,
                List.of(new Passage("a", chunk1, null, 1), new Passage("b", chunk2, null, 2)), norm);
        assertThat(overlap.get(1).reached()).isTrue();
        assertThat(overlap.get(1).kept()).isEqualTo(tail.length() + " Today most electric".length());

        // the budget dropped the second: its opening is in the prompt only as the first's tail, nothing of its own
        List<Passage> chunks = List.of(new Passage("a", chunk1, null, 1), new Passage("b", chunk2, null, 2));
        assertThat(PromptMatches.find(Texts.norm("Context:\n[1] " + chunk1 + "\n\nQuestion: why?"), chunks, norm))
                .extracting(PromptMatches.Match::reached).containsExactly(true, false);
        // cut to that opening as a block of its own: there, after the first
        String ownBlock = Texts.norm("Context:\n[1] " + chunk1 + "\n[2] " + tail + "\n\nQuestion: why?");
        PromptMatches.Match cutToTail = PromptMatches.find(ownBlock, chunks, norm).get(1);
        assertThat(cutToTail.at()).isEqualTo(ownBlock.lastIndexOf(Texts.norm(tail)));
        assertThat(cutToTail.kept()).isEqualTo(Texts.norm(tail).length() + 1); // and the space both have next
    }

    /**
     * A contextual compressor's extracts: what of a passage it found relevant, sentences from its middle, one or
     * several, as they stand. Each is read as an extract of that passage; a sentence too short to tell from chance, a
     * piece that lies in a passage found in the prompt (chunks overlap) and a piece another passage claimed are not.
     */
    @Test
    void shouldReadSentencesACompressorKeptAsExtractsOfTheirPassage() {
        NormalisedTexts norm = new NormalisedTexts();
        String s1 = "Steam turbines are generally more efficient than piston engines.";
        String s2 = "They have fewer moving parts, so they replaced reciprocating engines in power stations.";
        String s3 = "It was hot.";
        String s4 = "Today most electric power is provided by steam turbines of many sizes.";
        Passage passage = new Passage("a", s1 + " " + s2 + " " + s3 + " " + s4, null, 1);
        String text = norm.text(passage.text());

        // one sentence from the middle
        String prompt = Texts.norm("Context:\n" + s2 + "\n\nQuestion: why?");
        PromptMatches.Match one = PromptMatches.find(prompt, List.of(passage), norm).get(0);
        assertThat(one.extracted()).isTrue();
        assertThat(one.whole()).isFalse();
        assertThat(one.at()).isEqualTo(prompt.indexOf(Texts.norm(s2)));
        assertThat(one.kept()).isEqualTo(s2.length());
        assertThat(one.extracts()).containsExactly(new PromptMatches.Piece(text.indexOf(Texts.norm(s2)),
                prompt.indexOf(Texts.norm(s2)), s2.length()));

        // the second and the fourth, joined as the compressor wrote them; the short third is not counted alone
        String two = Texts.norm("Context:\n" + s2 + " ... " + s4 + " " + s3 + "\n\nQuestion: why?");
        PromptMatches.Match both = PromptMatches.find(two, List.of(passage), norm).get(0);
        assertThat(both.extracts()).extracting(PromptMatches.Piece::from)
                .containsExactly(text.indexOf(Texts.norm(s2)), text.indexOf(Texts.norm(s4)));
        assertThat(both.kept()).isEqualTo(s2.length() + s4.length());
        assertThat(PromptMatches.find(Texts.norm("Context: " + s3 + " Question: why?"), List.of(passage), norm)
                .get(0).reached()).isFalse();

        // a dropped passage that shares a sentence with one the prompt holds whole (chunks that overlap)
        Passage first = new Passage("a", s1 + " " + s2, null, 1);
        Passage second = new Passage("b", "The chunk before it ended with this sentence. " + s1 + " " + s4, null, 2);
        String overlapping = Texts.norm("Context: " + first.text() + " Question: why?");
        assertThat(PromptMatches.find(overlapping, List.of(first, second), norm))
                .extracting(PromptMatches.Match::reached).containsExactly(true, false);

        // two passages that share a sentence: the one piece of the prompt is the first's
        Passage copy = new Passage("c", "A copy of the text. " + s2 + " And more of it here.", null, 2);
        List<PromptMatches.Match> shared = PromptMatches.find(prompt, List.of(passage, copy), norm);
        assertThat(shared).extracting(PromptMatches.Match::extracted).containsExactly(true, false);
    }

    @Test
    void shouldFindWhereSentencesStartAfterTheirEnd() {
        String text = "one. two? \"three!\" four (five.) six";
        assertThat(PromptMatches.nextSentenceStart(text, 0)).isEqualTo(text.indexOf("two"));
        assertThat(PromptMatches.nextSentenceStart(text, text.indexOf("two"))).isEqualTo(text.indexOf("two"));
        assertThat(PromptMatches.nextSentenceStart(text, text.indexOf("two") + 1)).isEqualTo(text.indexOf("\"three"));
        assertThat(PromptMatches.nextSentenceStart(text, text.indexOf("three") + 1)).isEqualTo(text.indexOf("four"));
        assertThat(PromptMatches.nextSentenceStart(text, text.indexOf("four") + 1)).isEqualTo(text.indexOf("six"));
        assertThat(PromptMatches.nextSentenceStart(text, text.indexOf("six") + 1)).isEqualTo(-1);
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

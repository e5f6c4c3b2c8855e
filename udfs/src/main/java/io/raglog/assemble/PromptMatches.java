package io.raglog.assemble;

import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each passage handed on sits in the generator's prompt, found once per run: the generator's context
 * ({@link ContextPassages}) and context assembly ({@link ContextAssembly}) both read it. A passage is there whole, or
 * cut (its longest opening in the prompt is at least {@link #MIN_KEPT_CHARS} characters), or not at all. Positions
 * and lengths are in characters of the normalised texts, the form prompt and passages are compared in.
 */
final class PromptMatches {

    /**
     * The shortest opening read as a cut passage rather than a dropped one: short enough for a budget that leaves one
     * sentence, long enough that a shared opening phrase of two passages is not mistaken for one.
     */
    static final int MIN_KEPT_CHARS = 40;

    /**
     * One passage in the prompt.
     *
     * @param at where its (kept part's) text starts in the normalised prompt; -1 when it is not there
     * @param kept normalised characters that reached the prompt (0 when none did)
     * @param length the passage's normalised length
     */
    record Match(int at, int kept, int length) {

        boolean reached() {
            return at >= 0;
        }

        boolean whole() {
            return reached() && kept == length;
        }
    }

    private PromptMatches() {}

    /** One match per passage, in the passages' order. */
    static List<Match> find(String prompt, List<Passage> passages, NormalisedTexts norm) {
        List<Match> out = new ArrayList<>(passages.size());
        for (Passage p : passages) {
            String text = norm.text(p.text());
            int at = text.isEmpty() ? -1 : prompt.indexOf(text);
            if (at >= 0) {
                out.add(new Match(at, text.length(), text.length()));
                continue;
            }
            int kept = keptOpening(prompt, text);
            out.add(kept >= MIN_KEPT_CHARS ? new Match(prompt.indexOf(text.substring(0, kept)), kept, text.length())
                    : new Match(-1, 0, text.length()));
        }
        return out;
    }

    /**
     * {@link #longestPrefixIn}, or 0 when that is less than {@link #MIN_KEPT_CHARS}. Why: a passage dropped from the
     * prompt fails on its shortest opening that counts, where the search took a dozen steps, each copying an opening.
     */
    private static int keptOpening(String prompt, String text) {
        if (text.length() < MIN_KEPT_CHARS || !prompt.contains(text.substring(0, MIN_KEPT_CHARS))) {
            return 0;
        }
        return longestPrefixIn(prompt, text, MIN_KEPT_CHARS);
    }

    /**
     * Length of the longest prefix of {@code text} found in {@code prompt}, whose first {@code found} chars are known to
     * be there. Whether a prefix is found only turns false as it grows, so a binary search finds the edge in a
     * logarithmic number of searches.
     */
    static int longestPrefixIn(String prompt, String text, int found) {
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
}

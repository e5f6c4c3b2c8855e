package io.raglog.assemble;

import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where each passage handed on sits in the generator's prompt, found once per run: the generator's context
 * ({@link ContextPassages}) and context assembly ({@link ContextAssembly}) both read it. A passage is there whole, or
 * cut (its longest opening in the prompt is at least {@link #MIN_KEPT_CHARS} characters), or extracted (only pieces of
 * it that start a sentence are there, each at least {@link #MIN_EXTRACT_CHARS} long and outside the passages found
 * whole or cut: a contextual compressor such as LangChain's {@code LLMChainExtractor} kept what of it it found
 * relevant), or not at all. An opening inside another passage found in the prompt is that passage's text, unless it
 * runs on past that passage's end (chunks that overlap, one's tail the next one's opening, written once with what
 * follows it): "Reciprocating piston type steam engines remained ..." was read as cut where another passage said "...
 * more efficient than reciprocating piston type steam engines (for ...", in a real LangChain.js client's prompt, and a
 * chunk whose opening is only its neighbour's tail, with nothing of its own after it, was read as cut where the budget
 * had dropped it. Positions and lengths are in characters of the normalised texts, the form prompt and passages are
 * compared in.
 */
final class PromptMatches {

    /**
     * The shortest opening read as a cut passage rather than a dropped one: short enough for a budget that leaves one
     * sentence, long enough that a shared opening phrase of two passages is not mistaken for one.
     */
    static final int MIN_KEPT_CHARS = 40;

    /**
     * The shortest piece of a passage read as an extract of it: a short sentence ("The war ended in 1945 with the
     * treaty." is 38), long enough that a sentence two passages share by chance is rare. A piece must also start
     * where one of the passage's sentences does, as a compressor's extracts do.
     */
    static final int MIN_EXTRACT_CHARS = 30;

    /**
     * One passage in the prompt.
     *
     * @param at where its (kept part's, or its first extract's) text starts in the normalised prompt; -1 when it is
     *     not there
     * @param kept normalised characters that reached the prompt (0 when none did)
     * @param length the passage's normalised length
     * @param extracts the pieces that reached the prompt when it was extracted, in the passage's order; empty when it
     *     is whole, cut or not there
     */
    record Match(int at, int kept, int length, List<Piece> extracts) {

        Match(int at, int kept, int length) {
            this(at, kept, length, List.of());
        }

        boolean reached() {
            return at >= 0;
        }

        boolean whole() {
            return reached() && kept == length;
        }

        boolean extracted() {
            return !extracts.isEmpty();
        }
    }

    /**
     * A piece of a passage found in the prompt on its own.
     *
     * @param from where it starts in the normalised passage
     * @param at where it starts in the normalised prompt
     * @param length its normalised length
     */
    record Piece(int from, int at, int length) {}

    private static final int[] NO_SPANS = new int[0];

    private PromptMatches() {}

    /** {@link #find(String, List, List, NormalisedTexts)} with the prompt's context blocks unknown. */
    static List<Match> find(String prompt, List<Passage> passages, NormalisedTexts norm) {
        return find(prompt, passages, null, norm);
    }

    /**
     * One match per passage, in the passages' order: the whole ones first, then each cut one in turn, then each
     * extracted one, looked for only when the prompt reader split out a context block no passage found whole or cut
     * accounts for ({@code blocks}: the generator's context passages; null when unknown, and then always looked for).
     */
    static List<Match> find(String prompt, List<Passage> passages, List<String> blocks, NormalisedTexts norm) {
        int n = passages.size();
        String[] texts = new String[n];
        Match[] out = new Match[n];
        // where the passages found so far stand in the prompt: [start, end) pairs
        int[] spans = new int[2 * n];
        int found = 0;
        for (int i = 0; i < n; i++) {
            texts[i] = norm.text(passages.get(i).text());
            int at = texts[i].isEmpty() ? -1 : prompt.indexOf(texts[i]);
            if (at >= 0) {
                out[i] = new Match(at, texts[i].length(), texts[i].length());
                spans[2 * found] = at;
                spans[2 * found++ + 1] = at + texts[i].length();
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] == null) {
                out[i] = cut(prompt, texts[i], spans, found);
                if (out[i].reached()) {
                    spans[2 * found] = out[i].at();
                    spans[2 * found++ + 1] = out[i].at() + out[i].kept();
                }
            }
        }
        if (found == n || !someBlockUnaccounted(blocks, texts, out, norm)) {
            return List.of(out);
        }
        int[] gaps = null;
        List<int[]> extractSpans = null;
        for (int i = 0; i < n; i++) {
            if (!out[i].reached()) {
                if (gaps == null) {
                    gaps = gaps(prompt.length(), spans, found);
                    extractSpans = new ArrayList<>();
                }
                out[i] = extracted(prompt, texts[i], gaps, extractSpans);
            }
        }
        return List.of(out);
    }

    /**
     * A passage not in the prompt whole: its longest opening there, at the first place it is, when that is at least
     * {@link #MIN_KEPT_CHARS} long and is no other passage's text; else not there.
     */
    private static Match cut(String prompt, String text, int[] spans, int found) {
        int at = text.length() < MIN_KEPT_CHARS ? -1 : longestOpeningAt(prompt, text, MIN_KEPT_CHARS, spans, found);
        return at < 0 ? new Match(-1, 0, text.length())
                : new Match(at, openingLength(prompt, at, text, MIN_KEPT_CHARS), text.length());
    }

    /**
     * Where the text of [start, end) ends without its trailing space: an opening that runs past another passage's end
     * only by the space both texts have next (a chunk's tail, then the prompt's next line) holds nothing of its own.
     */
    private static int endOfWords(String prompt, int start, int end) {
        while (end > start && prompt.charAt(end - 1) == ' ') {
            end--;
        }
        return end;
    }

    /** Whether [start, end) begins inside a span found and ends before that span does or where it does. */
    private static boolean insideAnother(int start, int end, int[] spans, int found) {
        for (int s = 0; s < found; s++) {
            if (start >= spans[2 * s] && start < spans[2 * s + 1] && end <= spans[2 * s + 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a context block of the prompt reader's is none of the passages found whole or cut, nor part of one, nor
     * one with a line too short to be an extract (a header kept with it): an extract can be only there. The usual
     * prompt (every block a passage) is told by comparing texts, without searching the prompt for the sentences of
     * every passage it dropped.
     */
    private static boolean someBlockUnaccounted(List<String> blocks, String[] texts, Match[] matches,
            NormalisedTexts norm) {
        if (blocks == null || blocks.isEmpty()) {
            return true;
        }
        for (String block : blocks) {
            String b = norm.text(block);
            if (!b.isEmpty() && !accounted(b, texts, matches)) {
                return true;
            }
        }
        return false;
    }

    private static boolean accounted(String block, String[] texts, Match[] matches) {
        for (int i = 0; i < texts.length; i++) {
            if (matches[i].reached() && block.equals(texts[i])) {
                return true;
            }
        }
        for (int i = 0; i < texts.length; i++) {
            if (!matches[i].reached()) {
                continue;
            }
            int at = texts[i].indexOf(block);
            int kept = matches[i].kept();
            if (at >= 0 && at + block.length() <= kept
                    || block.length() - kept < MIN_EXTRACT_CHARS && holds(block, texts[i], kept)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code block} holds the first {@code length} chars of {@code text}. */
    private static boolean holds(String block, String text, int length) {
        if (length > block.length() || length == 0) {
            return false;
        }
        char first = text.charAt(0);
        for (int at = block.indexOf(first); at >= 0 && at <= block.length() - length; at = block.indexOf(first,
                at + 1)) {
            if (block.regionMatches(at, text, 0, length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The parts of the prompt no passage found whole or cut covers, as [start, end) pairs in order: where an extract
     * can start. A passage that was dropped is mostly dropped (a budget, a top-k), and searching the template and
     * question for its sentences, not the passages around them, kept the search off linking's costs (JMH
     * {@code RaglogBenchmarks.assembleRun}: a search of the whole prompt for each sentence cost a fifth of its speed).
     */
    private static int[] gaps(int promptLength, int[] spans, int found) {
        long[] sorted = new long[found];
        for (int s = 0; s < found; s++) {
            sorted[s] = (long) spans[2 * s] << 32 | spans[2 * s + 1];
        }
        Arrays.sort(sorted);
        int[] gaps = new int[2 * (found + 1)];
        int count = 0;
        int from = 0;
        for (long span : sorted) {
            int start = (int) (span >>> 32);
            if (start > from) {
                gaps[2 * count] = from;
                gaps[2 * count++ + 1] = start;
            }
            from = Math.max(from, (int) span);
        }
        if (promptLength > from) {
            gaps[2 * count] = from;
            gaps[2 * count++ + 1] = promptLength;
        }
        return Arrays.copyOf(gaps, 2 * count);
    }

    /**
     * A passage neither whole nor cut in the prompt, read for extracts: from each place one of its sentences starts
     * (its opening was the cut's to find), the longest run of its text found in the prompt starting in one of the
     * {@code gaps} the passages found leave, outside every extract taken, kept when it is at least
     * {@link #MIN_EXTRACT_CHARS} long; the next place tried is after it. Not there when no piece is kept.
     */
    private static Match extracted(String prompt, String text, int[] gaps, List<int[]> taken) {
        List<Piece> pieces = null;
        int kept = 0;
        for (int from = nextSentenceStart(text, 1); from >= 0 && text.length() - from >= MIN_EXTRACT_CHARS;
                from = nextSentenceStart(text, from + 1)) {
            char first = text.charAt(from);
            int longest = 0;
            int longestAt = -1;
            for (int g = 0; g < gaps.length; g += 2) {
                for (int at = prompt.indexOf(first, gaps[g]); at >= 0 && at < gaps[g + 1];
                        at = prompt.indexOf(first, at + 1)) {
                    if (!prompt.regionMatches(at, text, from, MIN_EXTRACT_CHARS)) {
                        continue;
                    }
                    int length = MIN_EXTRACT_CHARS + commonLength(prompt, at + MIN_EXTRACT_CHARS, text,
                            from + MIN_EXTRACT_CHARS);
                    if (length > longest && !overlapsTaken(at, at + length, taken)) {
                        longest = length;
                        longestAt = at;
                    }
                }
            }
            if (longestAt >= 0) {
                if (text.charAt(from + longest - 1) == ' ') {
                    longest--; // the space before the passage's next sentence, which the prompt also had next
                }
                if (pieces == null) {
                    pieces = new ArrayList<>();
                }
                pieces.add(new Piece(from, longestAt, longest));
                taken.add(new int[] {longestAt, longestAt + longest});
                kept += longest;
                from += longest - 1;
            }
        }
        return pieces == null ? new Match(-1, 0, text.length())
                : new Match(pieces.get(0).at(), kept, text.length(), List.copyOf(pieces));
    }

    /**
     * The first place at or after {@code from} where a sentence of the normalised {@code text} starts: after a space
     * that follows a full stop, question or exclamation mark (a closing quote or bracket between them); -1 when none.
     */
    static int nextSentenceStart(String text, int from) {
        for (int i = Math.max(from, 2); i < text.length(); i++) {
            if (text.charAt(i - 1) == ' ' && text.charAt(i) != ' ' && endsSentence(text, i - 2)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean endsSentence(String text, int i) {
        char c = text.charAt(i);
        if (c == '.' || c == '!' || c == '?') {
            return true;
        }
        return i > 0 && (c == '"' || c == '\'' || c == ')' || c == '\u201d' || c == '\u2019')
                && endsSentence(text, i - 1);
    }

    /** Whether [start, end) overlaps an extract already taken: two passages do not claim one piece of the prompt. */
    private static boolean overlapsTaken(int start, int end, List<int[]> taken) {
        for (int[] t : taken) {
            if (start < t[1] && end > t[0]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Length of the longest prefix of {@code text} found in {@code prompt}, whose first {@code found} chars are known to
     * be there (0 when none is).
     */
    static int longestPrefixIn(String prompt, String text, int found) {
        int least = Math.max(found, 1);
        int at = text.length() < least ? -1 : longestOpeningAt(prompt, text, least, NO_SPANS, 0);
        return at < 0 ? 0 : openingLength(prompt, at, text, least);
    }

    /**
     * The first place in {@code prompt} of {@code text}'s longest opening there, among openings of at least
     * {@code least} chars (1 or more, at most its length); -1 when there is none. Found by going through the places of
     * its first {@code least} chars (any longer opening starts at one of them) and comparing on from each, where a
     * binary search over the opening's length copied an opening for each step and searched for it again: 4.8 % of
     * what linking a run allocated (JFR of RaglogBenchmarks.assembleRun, issue #27). A later place replaces an earlier
     * only by a longer opening, so the place kept is where a search for the longest opening finds it. A place
     * inside one of the first {@code found} spans that ends no later than it does is passed over
     * ({@link #insideAnother}).
     */
    private static int longestOpeningAt(String prompt, String text, int least, int[] spans, int found) {
        String opening = text.substring(0, least);
        int longest = 0;
        int longestAt = -1;
        for (int at = prompt.indexOf(opening); at >= 0; at = prompt.indexOf(opening, at + 1)) {
            int length = openingLength(prompt, at, text, least);
            if (length > longest && !insideAnother(at, endOfWords(prompt, at, at + length), spans, found)) {
                longest = length;
                longestAt = at;
            }
        }
        return longestAt;
    }

    /** The length of the opening of {@code text} at {@code at} in {@code prompt}, whose first {@code known} chars are. */
    private static int openingLength(String prompt, int at, String text, int known) {
        return known + commonLength(prompt, at + known, text, known);
    }

    /** How many chars of {@code a} from {@code i} and of {@code b} from {@code j} are the same, one by one. */
    private static int commonLength(String a, int i, String b, int j) {
        int n = 0;
        int most = Math.min(a.length() - i, b.length() - j);
        while (n < most && a.charAt(i + n) == b.charAt(j + n)) {
            n++;
        }
        return n;
    }
}

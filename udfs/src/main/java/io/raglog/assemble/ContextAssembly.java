package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.PassageFate.Fate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Context assembly read from both of its sides: each passage handed on (the reranker's output, else retrieval's) is
 * looked for in the generator's prompt: whole, cut (a prefix of it is there and the rest is not: a context budget or
 * a per-passage cap cut it) or dropped. Lengths are in characters of the normalised texts (whitespace collapsed), the
 * form both sides are compared in.
 */
final class ContextAssembly {

    /**
     * The shortest prefix read as a cut passage rather than a dropped one: short enough for a budget that leaves one
     * sentence, long enough that a shared opening phrase of two passages is not mistaken for one.
     */
    static final int MIN_KEPT_CHARS = 40;

    private ContextAssembly() {}

    /**
     * @param handedOn what the stage before handed on, in its order; empty when the run shows none
     * @param generator the generator call whose prompt was built, null when the run has none
     * @return the stage, absent when either side is missing or when no passage handed on is found in the prompt at
     *     all (then the context reached the model some other way raglog does not see, not "every passage dropped")
     */
    static AssembleStage of(List<Passage> handedOn, String handedOnBy, ChatDetail generator, Integer promptTokens,
            NormalisedTexts norm) {
        return of(handedOn, handedOnBy, false, generator, promptTokens, norm);
    }

    /**
     * @param ownTopN the stage before scored every passage and the pipeline keeps its own top few (a reranker asked
     *     without a top-n): that cut is the pipeline's choice of how many to keep, read as the reranker's, so only
     *     the passages ranked above the lowest one that reached the prompt count as handed on
     */
    static AssembleStage of(List<Passage> handedOn, String handedOnBy, boolean ownTopN, ChatDetail generator,
            Integer promptTokens, NormalisedTexts norm) {
        if (handedOn.isEmpty() || generator == null || generator.promptText() == null) {
            return AssembleStage.absent();
        }
        String prompt = norm.prompt(generator);
        List<Found> found = new ArrayList<>();
        boolean anyReached = false;
        for (int i = 0; i < handedOn.size(); i++) {
            Passage p = handedOn.get(i);
            String text = p.text() == null ? "" : norm.text(p.text());
            int at = text.isEmpty() ? -1 : prompt.indexOf(text);
            Fate fate;
            int kept;
            if (at >= 0) {
                fate = Fate.WHOLE;
                kept = text.length();
            } else {
                kept = longestPrefixIn(prompt, text);
                fate = kept >= MIN_KEPT_CHARS ? Fate.CUT : Fate.DROPPED;
                at = fate == Fate.CUT ? prompt.indexOf(text.substring(0, kept)) : -1;
                kept = fate == Fate.CUT ? kept : 0;
            }
            anyReached |= fate != Fate.DROPPED;
            found.add(new Found(p.id(), i + 1, fate, at, text.length(), kept));
        }
        if (!anyReached) {
            return AssembleStage.absent();
        }
        if (ownTopN) {
            int last = found.size() - 1;
            while (found.get(last).fate == Fate.DROPPED) {
                last--;
            }
            found = found.subList(0, last + 1);
        }
        List<Found> inPrompt = found.stream().filter(f -> f.at >= 0).sorted(Comparator.comparingInt(Found::at)).toList();
        List<PassageFate> fates = new ArrayList<>();
        for (Found f : found) {
            Integer position = f.at < 0 ? null : inPrompt.indexOf(f) + 1;
            fates.add(new PassageFate(f.id, f.rank, f.fate, position, f.chars, f.kept));
        }
        return new AssembleStage(true, handedOnBy, fates, promptTokens, ContextWindows.of(generator.model()));
    }

    /**
     * Length of the longest prefix of {@code text} found in {@code prompt}. Whether a prefix is found only turns false
     * as it grows, so a binary search finds the edge in a logarithmic number of searches.
     */
    static int longestPrefixIn(String prompt, String text) {
        int lo = 0;
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

    private record Found(String id, int rank, Fate fate, int at, int chars, int kept) {}
}

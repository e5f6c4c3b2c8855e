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
 * looked for in the generator's prompt: whole, cut (a prefix of it is there and the rest is not: a context budget or a
 * per-passage cap cut it), extracted (pieces of it are there: a contextual compressor kept them) or dropped. Lengths
 * are in characters of the normalised texts (whitespace collapsed), the form both sides are compared in.
 */
final class ContextAssembly {

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
        // no test of generator.promptText() for null: it never is (its messages joined), and each test joined a copy
        if (handedOn.isEmpty() || generator == null) {
            return AssembleStage.absent();
        }
        List<PromptMatches.Match> matches = PromptMatches.find(norm.prompt(generator), handedOn,
                generator.contextPassages(), norm);
        return of(handedOn, matches, handedOnBy, ownTopN, generator, promptTokens);
    }

    /** The same from the passages' matches in the prompt, found once for the run ({@link PromptMatches}). */
    static AssembleStage of(List<Passage> handedOn, List<PromptMatches.Match> matches, String handedOnBy,
            boolean ownTopN, ChatDetail generator, Integer promptTokens) {
        if (handedOn.isEmpty() || generator == null || matches.stream().noneMatch(PromptMatches.Match::reached)) {
            return AssembleStage.absent();
        }
        int last = handedOn.size() - 1;
        if (ownTopN) {
            while (!matches.get(last).reached()) {
                last--;
            }
        }
        List<Integer> inPromptOrder = new ArrayList<>();
        for (int i = 0; i <= last; i++) {
            if (matches.get(i).reached()) {
                inPromptOrder.add(i);
            }
        }
        inPromptOrder.sort(Comparator.comparingInt(i -> matches.get(i).at()));
        List<PassageFate> fates = new ArrayList<>();
        for (int i = 0; i <= last; i++) {
            PromptMatches.Match m = matches.get(i);
            Fate fate = !m.reached() ? Fate.DROPPED
                    : m.whole() ? Fate.WHOLE : m.extracted() ? Fate.EXTRACTED : Fate.CUT;
            Integer position = m.reached() ? inPromptOrder.indexOf(i) + 1 : null;
            fates.add(new PassageFate(handedOn.get(i).id(), i + 1, fate, position, m.length(), m.kept()));
        }
        return new AssembleStage(true, handedOnBy, fates, promptTokens, ContextWindows.of(generator.model()));
    }
}

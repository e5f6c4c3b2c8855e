package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.WordPieces;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The pipeline's own code between the passages handed on and the prompt: the budget is spent best first, the passage
 * that overflows is cut (or dropped), the rest dropped, and what is kept is put in the pipeline's order. A cut passage
 * is a {@link Chunk} of the same id whose text is the prefix that fit, exactly what a prompt built from it holds.
 */
final class ContextAssembler {

    /** The prompt's passages in prompt order, and the fault planted, if any. */
    record Assembly(List<Chunk> prompt, Fault fault) {}

    /**
     * The fewest passages a prompt holds for its middle to bury one: with three, the middle passage sits next to both
     * ends, and models read a short context whole.
     */
    static final int MIN_PASSAGES_TO_BURY = 4;

    /** The least of a cut passage an injected budget leaves in the prompt, in word pieces (about 60 characters). */
    static final int MIN_KEPT_PIECES = 16;

    private ContextAssembler() {}

    static Assembly assemble(List<Chunk> handedOn, ContextBudget budget) {
        return new Assembly(order(fit(handedOn, budget.tokens(), budget.cuts()), budget.order()), null);
    }

    /**
     * The assembly losing the answer: null when no passage handed on holds it (nothing to lose). Either a budget
     * tighter than the pipeline's usual one (the chat history or a longer template took its share) cuts the passage
     * that holds the answer before the answer's sentence, or the pipeline's ordering put that passage past the budget
     * and it was dropped whole.
     */
    static Injection<List<Chunk>> loseAnswer(Question q, List<Chunk> handedOn, Set<Chunk> evidence,
            ContextBudget budget, SplittableRandom rng) {
        int at = -1;
        for (int i = 0; i < handedOn.size(); i++) {
            if (evidence.contains(handedOn.get(i)) && AnswerMatch.contains(handedOn.get(i).text(),
                    q.acceptableAnswers())) {
                at = i;
                break;
            }
        }
        if (at < 0 || handedOn.stream().filter(c -> AnswerMatch.contains(c.text(), q.acceptableAnswers())).count() > 1) {
            return null; // nothing to lose, or a second passage would still answer
        }
        Chunk holder = handedOn.get(at);
        int before = 0;
        for (int i = 0; i < at; i++) {
            before += WordPieces.count(handedOn.get(i).text());
        }
        int answerAt = answerStart(q, holder.text());
        int keptPieces = answerAt <= 0 ? 0 : WordPieces.count(holder.text().substring(0, answerAt));
        boolean canCut = budget.cuts() && keptPieces >= MIN_KEPT_PIECES + 4 && rng.nextDouble() < 0.6;
        if (canCut) {
            // the budget ends somewhere before the answer: in an earlier sentence, or in the answer's own; what is
            // left of the passage is at least a phrase, as a budget that fits one passage in part leaves
            int tokens = before + MIN_KEPT_PIECES + rng.nextInt(keptPieces - MIN_KEPT_PIECES);
            List<Chunk> kept = order(fit(handedOn, tokens, true), budget.order());
            return new Injection<>(kept, new Fault(FaultType.ASSEMBLE_EVIDENCE_CUT, "the context budget ("
                    + tokens + " tokens) cut passage " + (at + 1) + " of " + handedOn.size() + " ("
                    + holder.chunkId() + ") before the answer"));
        }
        // moved last (a sort on a stale score, the store's order restored) and the budget dropped it whole
        List<Chunk> reordered = new ArrayList<>(handedOn);
        reordered.remove(at);
        List<Chunk> kept = order(fit(reordered, budget.tokens(), budget.cuts()), budget.order());
        String why = at == handedOn.size() - 1 ? "was past the context budget and dropped"
                : "was moved to the end by the prompt's ordering and dropped by the context budget";
        return new Injection<>(kept, new Fault(FaultType.ASSEMBLE_EVIDENCE_DROPPED, "passage " + (at + 1) + " of "
                + handedOn.size() + " (" + holder.chunkId() + "), which holds the answer, " + why));
    }

    /**
     * The assembly burying the answer: the prompt keeps every passage it would have kept, but its order puts the one
     * passage that holds the answer, which the pipeline's own order left at an end, in the middle (a merge of two
     * retrievers' lists, a sort by document or date, a "lost in the middle" reorder left out). Null when the prompt is
     * too short to have a middle, when no passage or more than one holds the answer, or when the answer's passage is
     * already inside (then its place is the pipeline's usual order, not a fault).
     */
    static Injection<List<Chunk>> buryAnswer(Question q, List<Chunk> prompt, Set<Chunk> evidence) {
        if (prompt.size() < MIN_PASSAGES_TO_BURY) {
            return null;
        }
        int at = -1;
        for (int i = 0; i < prompt.size(); i++) {
            if (AnswerMatch.contains(prompt.get(i).text(), q.acceptableAnswers())) {
                if (at >= 0) {
                    return null; // a second passage would still answer
                }
                at = i;
            }
        }
        if (at < 0 || !evidence.contains(prompt.get(at)) || at != 0 && at != prompt.size() - 1) {
            return null;
        }
        Chunk holder = prompt.get(at);
        List<Chunk> reordered = new ArrayList<>(prompt);
        reordered.remove(at);
        int middle = reordered.size() / 2;
        reordered.add(middle, holder);
        return new Injection<>(reordered, new Fault(FaultType.ASSEMBLE_EVIDENCE_BURIED, "passage " + holder.chunkId()
                + ", which holds the answer, was moved from position " + (at + 1) + " to " + (middle + 1) + " of the "
                + prompt.size() + " passages in the prompt, and the model answered without it"));
    }

    /**
     * Spends the budget best first; null tokens keep everything. A pipeline that drops whole passages still sends its
     * best one when even that overflows the room its prompt left (no framework sends a prompt with no context; the
     * model's window, not the budget, is the hard limit).
     */
    static List<Chunk> fit(List<Chunk> handedOn, Integer tokens, boolean cuts) {
        if (tokens == null) {
            return List.copyOf(handedOn);
        }
        List<Chunk> out = new ArrayList<>();
        int left = tokens;
        for (Chunk c : handedOn) {
            int pieces = WordPieces.count(c.text());
            if (pieces <= left) {
                out.add(c);
                left -= pieces;
                continue;
            }
            if (cuts && left > 0) {
                String cut = WordPieces.cut(c.text(), left);
                if (!cut.isBlank()) {
                    out.add(new Chunk(c.chunkId(), c.index(), c.docId(), c.title(), c.ordinal(), c.start(), cut));
                }
            } else if (!cuts && out.isEmpty()) {
                out.add(c);
            }
            break;
        }
        return out;
    }

    static List<Chunk> order(List<Chunk> bestFirst, ContextBudget.Order order) {
        List<Chunk> out = new ArrayList<>();
        switch (order) {
            case AS_HANDED -> out.addAll(bestFirst);
            case BEST_LAST -> {
                for (int i = bestFirst.size() - 1; i >= 0; i--) {
                    out.add(bestFirst.get(i));
                }
            }
            case ENDS_FIRST -> {
                // 1st, 3rd, 5th ... from the front; 2nd, 4th ... from the back
                Chunk[] slots = new Chunk[bestFirst.size()];
                int front = 0;
                int back = bestFirst.size() - 1;
                for (int i = 0; i < bestFirst.size(); i++) {
                    if (i % 2 == 0) {
                        slots[front++] = bestFirst.get(i);
                    } else {
                        slots[back--] = bestFirst.get(i);
                    }
                }
                out.addAll(List.of(slots));
            }
        }
        return out;
    }

    /** Where the first accepted answer starts in {@code text} (ignoring case); -1 when none is there. */
    static int answerStart(Question q, String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        int first = -1;
        for (String answer : q.acceptableAnswers()) {
            int at = answer.isBlank() ? -1 : lower.indexOf(answer.toLowerCase(java.util.Locale.ROOT));
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }
}

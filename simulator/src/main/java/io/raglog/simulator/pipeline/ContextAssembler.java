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
 * The pipeline's own code between the passages handed on and the prompt: the budget is spent in the pipeline's fill
 * order (best first, or the documents' own order), the passage that overflows is cut (or dropped), the rest dropped,
 * and what is kept is put in the pipeline's order. A cut passage is a {@link Chunk} of the same id whose text is the
 * prefix that fit, exactly what a prompt built from it holds.
 */
final class ContextAssembler {

    /** The prompt's passages in prompt order, and the fault planted, if any. */
    record Assembly(List<Chunk> prompt, Fault fault) {}

    /**
     * The fewest passages a prompt holds for its middle to bury one: with three, the middle passage sits next to both
     * ends, and models read a short context whole.
     */
    static final int MIN_PASSAGES_TO_BURY = 4;

    /**
     * How many rooms (drawn as any run of the pipeline gets one) a planted loss tries before it gives up: enough to
     * find the tight rooms a long conversation leaves, few enough that a budget which seldom loses the answer is
     * seldom made to.
     */
    static final int ROOM_DRAWS = 8;

    private ContextAssembler() {}

    static Assembly assemble(List<Chunk> handedOn, ContextBudget budget) {
        return new Assembly(order(fit(budget.fill().arrange(handedOn), budget.tokens(), budget.cuts()), budget.order()),
                null);
    }

    /**
     * The assembly losing the answer the way a pipeline's own code loses it: in a room drawn as any of the pipeline's
     * runs gets one ({@link ContextBudget#forRun}: what the chat history or a longer template left of its budget), the
     * budget spent in the pipeline's own fill order runs out before the passage that holds the answer, which ends up
     * cut before its answer or dropped. Null when no passage handed on holds the answer, when a second one would
     * still answer, or when none of the rooms drawn loses it (a pipeline without a budget loses nothing; a short
     * context fits the least room; a pipeline that spends its budget best first keeps a best passage that holds it).
     * A loss the pipeline's code could not have made (a room tighter than any of its runs gets, a passage moved out of
     * the order every other run of the pipeline fills in) would tell itself by what it lost, and teach nothing.
     */
    static Injection<List<Chunk>> loseAnswer(Question q, List<Chunk> handedOn, Set<Chunk> evidence,
            ContextBudget pipeline, SplittableRandom rng) {
        int at = -1;
        for (int i = 0; i < handedOn.size(); i++) {
            if (evidence.contains(handedOn.get(i)) && AnswerMatch.contains(handedOn.get(i).text(),
                    q.acceptableAnswers())) {
                at = i;
                break;
            }
        }
        if (at < 0 || pipeline.tokens() == null
                || handedOn.stream().filter(c -> AnswerMatch.contains(c.text(), q.acceptableAnswers())).count() > 1) {
            return null; // nothing to lose, nothing that runs out, or a second passage would still answer
        }
        Chunk holder = handedOn.get(at);
        List<Chunk> filled = pipeline.fill().arrange(handedOn);
        for (int draw = 0; draw < ROOM_DRAWS; draw++) {
            ContextBudget room = pipeline.forRun(rng);
            List<Chunk> kept = order(fit(filled, room.tokens(), room.cuts()), room.order());
            if (kept.stream().noneMatch(c -> AnswerMatch.contains(c.text(), q.acceptableAnswers()))) {
                boolean reordered = filled.indexOf(holder) != at;
                return new Injection<>(kept, lost(holder, at, handedOn.size(), reordered, room, kept));
            }
        }
        return null;
    }

    /** @param reordered the fill order put the answer's passage elsewhere than where it was handed on */
    private static Fault lost(Chunk holder, int at, int handed, boolean reordered, ContextBudget room,
            List<Chunk> kept) {
        String passage = "passage " + (at + 1) + " of " + handed + " (" + holder.chunkId() + ")";
        String lateInOrder = "which the budget reached late in the documents' order";
        if (kept.stream().anyMatch(c -> c.chunkId().equals(holder.chunkId()))) {
            return new Fault(FaultType.ASSEMBLE_EVIDENCE_CUT, "the context budget (" + room.tokens()
                    + " tokens of room this run) cut " + passage + (reordered ? ", " + lateInOrder + "," : "")
                    + " before the answer");
        }
        return new Fault(FaultType.ASSEMBLE_EVIDENCE_DROPPED, passage + ", which holds the answer"
                + (reordered ? " and " + lateInOrder : "") + ", was past the context budget (" + room.tokens()
                + " tokens of room this run) and dropped");
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
     * Spends the budget in the order given; null tokens keep everything. A pipeline that drops whole passages still
     * sends its first one when even that overflows the room its prompt left (no framework sends a prompt with no
     * context; the model's window, not the budget, is the hard limit).
     */
    static List<Chunk> fit(List<Chunk> inFillOrder, Integer tokens, boolean cuts) {
        if (tokens == null) {
            return List.copyOf(inFillOrder);
        }
        List<Chunk> out = new ArrayList<>();
        int left = tokens;
        for (Chunk c : inFillOrder) {
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

    /** {@code bestFirst}: the kept passages in the order the budget was spent in. */
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
}

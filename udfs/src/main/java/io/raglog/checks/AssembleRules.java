package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.checks.RunTexts.HandedOn;
import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Context assembly: what the passages handed on lost on their way into the prompt, and whether what they lost held
 * the answer. A healthy pipeline often loses a weak last passage to its budget; losing the sentence that answers the
 * question, while the prompt keeps nothing as good, is the fault.
 */
final class AssembleRules {

    static final String CHECK = "assemble.context";

    private AssembleRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.ASSEMBLE)) {
            return;
        }
        AssembleStage stage = run.stages().assemble();
        List<HandedOn> handed = RunTexts.handedOn(run);
        // an extracted passage is cut too (part of it reached the prompt); what cut it is told apart for the repair
        long extracted = handed.stream().filter(h -> h.fate().fate() == PassageFate.Fate.EXTRACTED).count();
        long cut = extracted + handed.stream().filter(h -> h.fate().fate() == PassageFate.Fate.CUT).count();
        long dropped = handed.stream().filter(h -> h.fate().fate() == PassageFate.Fate.DROPPED).count();
        long chars = 0;
        long lostChars = 0;
        double rankWeight = 0;
        for (HandedOn h : handed) {
            PassageFate f = h.fate();
            chars += f.chars();
            lostChars += f.chars() - f.keptChars();
            if (h.lost() && f.chars() > 0 && f.handedRank() > 0) {
                // a pipeline that spends its budget best first loses its last passages; losing the first is losing
                // what the stage before judged most likely to answer
                rankWeight = Math.max(rankWeight, (double) (f.chars() - f.keptChars()) / f.chars() / f.handedRank());
            }
        }
        v.put(ASSEMBLE_HANDED_ON, handed.size()).put(ASSEMBLE_CUT, cut).put(ASSEMBLE_EXTRACTED, extracted)
                .put(ASSEMBLE_DROPPED, dropped)
                .put(ASSEMBLE_LOST_SHARE, chars == 0 ? 0 : (double) lostChars / chars)
                .put(ASSEMBLE_LOST_RANK_WEIGHT, rankWeight);
        if (stage.promptTokens() != null && stage.contextWindow() != null) {
            v.put(ASSEMBLE_WINDOW_SHARE, (double) stage.promptTokens() / stage.contextWindow());
        }
        String question = RunTexts.question(run);
        if (question == null) {
            return;
        }
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        if (!answers.hasQuestion()) {
            return;
        }
        if (run.has(Stage.RERANK)) {
            rerankOwnCut(run, handed, answers, v);
        }
        List<Passage> context = RunTexts.context(run);
        double keptBest = keptBest(context, handed, answers);
        HandedOn bestLost = null;
        double lostBest = 0;
        for (HandedOn h : handed) {
            if (!h.lost()) {
                continue;
            }
            double m = answers.bestIn(h.lostSentences());
            if (m > lostBest) {
                lostBest = m;
                bestLost = h;
            }
        }
        v.put(ASSEMBLE_LOST_ANSWER_MATCH, lostBest).put(ASSEMBLE_LOST_ANSWER_GAP, lostBest - keptBest);
        if (context.size() >= 3) {
            int best = 0;
            double bestMatch = -1;
            for (int i = 0; i < context.size(); i++) {
                double m = answers.bestIn(context.get(i).text());
                if (m > bestMatch) {
                    bestMatch = m;
                    best = i;
                }
            }
            double half = (context.size() - 1) / 2.0;
            v.put(ASSEMBLE_ANSWER_DEPTH, Math.min(best, context.size() - 1 - best) / half);
            if (buried(context.size(), best, bestMatch)) {
                findings.add(Finding.of(CHECK, Fact.of(Stage.ASSEMBLE, FactKind.BURIED_IN_PROMPT, "")
                                .withPassages(List.of(context.get(best).id())),
                        "passage " + (best + 1) + " of the " + context.size() + " in the prompt ("
                                + context.get(best).id() + ") answers the question best, and sits in the middle, "
                                + "where models use a long context least"));
            }
        }
        if (bestLost != null && lostBest >= AnswerSentences.ANSWERS && keptBest < AnswerSentences.ANSWERS) {
            PassageFate f = bestLost.fate();
            // a budget mostly cuts inside a sentence; the reader looks for the answer where the cut fell
            String where = answers.bestIn(bestLost.cutSentence()) >= lostBest ? "inside" : "before";
            String what = switch (f.fate()) {
                case CUT -> "cut it after " + f.keptChars() + " of its " + f.chars() + " characters, " + where
                        + " the sentence that answers the question";
                case EXTRACTED -> "kept only extracts of it (" + f.keptChars() + " of its " + f.chars()
                        + " characters), without the sentence that answers the question";
                default -> "dropped it";
            };
            findings.add(Finding.of(CHECK, Fact.of(Stage.ASSEMBLE, FactKind.MISSING_ANSWER, Fact.ANSWER)
                            .withPassages(List.of(f.passageId())),
                    "passage " + f.handedRank() + " of " + handed.size() + " handed on by " + handedOnBy(stage)
                            + " (" + f.passageId() + ") holds the answer; context assembly " + what
                            + promptSize(stage)));
        } else if (cut + dropped > 0) {
            List<String> lost = handed.stream().filter(HandedOn::lost).map(h -> h.passage().id()).toList();
            findings.add(Finding.of(CHECK, Fact.of(Stage.ASSEMBLE, FactKind.LOST_IN_ASSEMBLY, "").withPassages(lost),
                    "context assembly cut " + cut + (extracted > 0 ? " (" + extracted + " to extracts)" : "")
                            + " and dropped " + dropped + " of the " + handed.size() + " passages handed on"
                            + promptSize(stage)));
        }
    }

    /**
     * How well the prompt answers, by whole sentences: a passage the budget cut counts only the sentences before the
     * one the cut falls in, which is read as lost ({@link HandedOn#lostSentences}); an extracted one, the sentences its
     * extracts hold whole. Its kept half restates the
     * question's words as well as the whole sentence does, and would hide that the answer went with the other half.
     */
    private static double keptBest(List<Passage> context, List<HandedOn> handed, AnswerSentences answers) {
        Set<String> cut = new HashSet<>();
        double best = 0;
        for (HandedOn h : handed) {
            if (h.fate().fate() == PassageFate.Fate.CUT || h.fate().fate() == PassageFate.Fate.EXTRACTED) {
                cut.add(h.passage().id());
                best = Math.max(best, answers.bestIn(h.keptSentences()));
            }
        }
        for (Passage p : context) {
            if (!cut.contains(p.id())) {
                best = Math.max(best, answers.bestIn(p.text()));
            }
        }
        return best;
    }

    /**
     * The prompt's best answering passage is inside a prompt of {@link #MIN_PASSAGES_TO_BURY} or more, not at either
     * end. A finding, not a flag: a sound model often reads it there, so the classifier weighs it with the answer.
     */
    static boolean buried(int passages, int bestAt, double bestMatch) {
        return passages >= MIN_PASSAGES_TO_BURY && bestAt > 0 && bestAt < passages - 1
                && bestMatch >= AnswerSentences.ANSWERS;
    }

    /** With three passages the middle one is next to both ends; "lost in the middle" needs a middle. */
    static final int MIN_PASSAGES_TO_BURY = 4;

    /** The reranker's own cut, apart from what assembly lost after it: what it was given and did not hand on. */
    private static void rerankOwnCut(Run run, List<HandedOn> handedOn, AnswerSentences answers, FeatureVector v) {
        Set<String> handedIds = new HashSet<>();
        List<Passage> handed = new ArrayList<>();
        for (HandedOn h : handedOn) {
            handedIds.add(h.passage().id());
            handed.add(h.passage());
        }
        List<Passage> cutByReranker = RunTexts.nonNull(run.stages().rerank().input()).stream()
                .filter(p -> !handedIds.contains(p.id())).toList();
        if (!cutByReranker.isEmpty()) {
            v.put(RERANK_CUT_ANSWER_GAP, answers.bestIn(cutByReranker) - answers.bestIn(handed));
        }
    }

    /**
     * The judge's evidence flow read against the assembly: the share of needed pieces it found only in passages that
     * were handed on and then cut or dropped (the judge is shown what of a cut passage did not reach the prompt
     * whole, under its id: {@link RunTexts#neverReached}).
     */
    static void fromEvidenceFlow(Run run, EvidenceFlow flow, FeatureVector v) {
        if (!run.has(Stage.ASSEMBLE) || flow == null || flow.pieces() == null || flow.pieces().isEmpty()) {
            return;
        }
        Set<String> lost = RunTexts.lostInAssembly(run);
        long inLost = 0;
        for (EvidencePiece piece : flow.pieces()) {
            if (piece.location() == EvidenceLocation.ONLY_DROPPED && piece.passageIds() != null
                    && piece.passageIds().stream().anyMatch(lost::contains)) {
                inLost++;
            }
        }
        v.put(ASSEMBLE_FLOW_LOST, (double) inLost / flow.pieces().size());
    }

    /** Who handed the passages on, as a reader names it: "the reranker", not the stage's id "rerank". */
    private static String handedOnBy(AssembleStage stage) {
        if (stage.handedOnBy() == null) {
            return "the stage before";
        }
        return switch (stage.handedOnBy()) {
            case AssembleStage.BY_RERANK -> "the reranker";
            case AssembleStage.BY_RETRIEVE -> "retrieval";
            default -> "the " + stage.handedOnBy().toLowerCase(Locale.ROOT);
        };
    }

    private static String promptSize(AssembleStage stage) {
        if (stage.promptTokens() == null) {
            return "";
        }
        return stage.contextWindow() == null ? "; the prompt used " + grouped(stage.promptTokens()) + " tokens"
                : "; the prompt used " + grouped(stage.promptTokens()) + " of " + grouped(stage.contextWindow())
                        + " tokens of the model's window";
    }

    /**
     * As {@code String.format(Locale.ROOT, "%,d", n)}: "128,000". Written out because String.format builds a Formatter
     * and the locale's number symbols on every call, a twentieth of what the rule checks allocated (JFR).
     */
    static String grouped(long n) {
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        StringBuilder out = new StringBuilder(digits.length() + digits.length() / 3);
        out.append(digits, 0, sign);
        for (int i = sign; i < digits.length(); i++) {
            if (i > sign && (digits.length() - i) % 3 == 0) {
                out.append(',');
            }
            out.append(digits.charAt(i));
        }
        return out.toString();
    }
}

package io.raglog.schemas;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A person's review of one run from the debugging queue ({@code schemas/review.v1.json}): per stage a label in the
 * shape of {@link Label}'s (1 faulty, 0 sound, null absent), whether the question asks what the knowledge base lacks,
 * who reviewed and when, and, for the audit, what the verdict said and what the reviewer did with each stage. The
 * labels are what {@code train}, {@code evaluate} and {@code thresholds} learn from once exported as
 * {@code raglog.label/v3} lines ({@link #toLabel()}).
 *
 * @param stages the reviewer's labels, derived from {@code decisions}: a stage the verdict did not score is null
 * @param knowledgeGap the reviewer found that the knowledge base holds no answer (from {@code decisions.knowledgeGap})
 * @param decisions per stage what the reviewer did with raglog's decision, null for a stage the run did not have;
 *     and what they did with its knowledge-gap decision
 * @param answerCorrect whether the reviewer found the answer right (an abstention is right for a knowledge gap); null
 *     when they did not say
 * @param verdict what raglog said, kept for the audit: a later bundle's verdict on the same run does not rewrite it
 */
public record Review(
        String schema,
        String runId,
        String pipeline,
        String question,
        String answer,
        LabelStages stages,
        boolean knowledgeGap,
        Boolean answerCorrect,
        String reviewer,
        Instant reviewedAt,
        String note,
        Decisions decisions,
        VerdictAudit verdict) {

    public static final String SCHEMA_V1 = "raglog.review/v1";
    /** The {@code profile} of a label made from a review: where the label came from, not a simulator stack. */
    public static final String LABEL_PROFILE = "review";

    /** Per stage the reviewer's decision (null for a stage the run did not have), and on the knowledge gap. */
    public record Decisions(StageReview rewrite, StageReview embed, StageReview retrieve, StageReview rerank,
            StageReview assemble, StageReview generate, StageReview knowledgeGap) {

        public StageReview get(Stage stage) {
            return switch (stage) {
                case REWRITE -> rewrite;
                case EMBED -> embed;
                case RETRIEVE -> retrieve;
                case RERANK -> rerank;
                case ASSEMBLE -> assemble;
                case GENERATE -> generate;
            };
        }

        static Decisions of(Map<Stage, StageReview> byStage, StageReview knowledgeGap) {
            return new Decisions(byStage.get(Stage.REWRITE), byStage.get(Stage.EMBED), byStage.get(Stage.RETRIEVE),
                    byStage.get(Stage.RERANK), byStage.get(Stage.ASSEMBLE), byStage.get(Stage.GENERATE), knowledgeGap);
        }
    }

    /** One stage as the verdict scored it. */
    public record StageAudit(boolean present, Double probability, Double threshold, boolean flagged) {}

    /** The verdict's own decision on the run, as it was when the reviewer saw it. */
    public record VerdictAudit(String modelBundle, Instant scoredAt, List<Stage> flaggedStages,
            boolean knowledgeGapFlagged, Double knowledgeGapScore, StageAudit rewrite, StageAudit embed,
            StageAudit retrieve, StageAudit rerank, StageAudit assemble, StageAudit generate) {

        public StageAudit get(Stage stage) {
            return switch (stage) {
                case REWRITE -> rewrite;
                case EMBED -> embed;
                case RETRIEVE -> retrieve;
                case RERANK -> rerank;
                case ASSEMBLE -> assemble;
                case GENERATE -> generate;
            };
        }

        public static VerdictAudit of(Verdict v) {
            StageAudit[] s = new StageAudit[Stage.values().length];
            for (Stage stage : Stage.values()) {
                StageVerdict sv = v.stages().get(stage);
                s[stage.ordinal()] = new StageAudit(sv.present(), sv.probability(), sv.threshold(), sv.flagged());
            }
            return new VerdictAudit(v.modelBundle(), v.scoredAt(), v.flaggedStages() == null ? List.of()
                    : List.copyOf(v.flaggedStages()), v.knowledgeGap().flagged(), v.knowledgeGap().score(),
                    s[0], s[1], s[2], s[3], s[4], s[5]);
        }
    }

    /**
     * A review of {@code verdict}'s run. {@code decisions} must name every stage the verdict scored and no other;
     * a flagged stage is confirmed or rejected, an unflagged one added or left sound; the knowledge gap likewise.
     *
     * @param knowledgeGap what the reviewer did with the verdict's knowledge-gap decision: confirmed or rejected when
     *     it flagged a gap, added (a gap raglog missed) or sound (no gap) when it did not
     * @throws IllegalArgumentException when a decision does not fit the verdict, naming the stage
     */
    public static Review of(Verdict verdict, Map<Stage, StageReview> decisions, StageReview knowledgeGap,
            Boolean answerCorrect, String reviewer, String note, Instant reviewedAt) {
        Objects.requireNonNull(verdict, "verdict");
        if (reviewer == null || reviewer.isBlank()) {
            throw new IllegalArgumentException("a review needs a reviewer");
        }
        Map<Stage, StageReview> kept = new EnumMap<>(Stage.class);
        Integer[] labels = new Integer[Stage.values().length];
        List<String> problems = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            StageVerdict scored = verdict.stages().get(stage);
            StageReview decision = decisions.get(stage);
            if (!scored.present()) {
                if (decision != null) {
                    problems.add(stage.id() + ": the run has no such stage");
                }
                continue;
            }
            if (decision == null) {
                problems.add(stage.id() + ": no decision");
            } else if (!decision.fits(scored.flagged())) {
                problems.add(stage.id() + ": " + decision.id() + " does not fit a stage raglog "
                        + (scored.flagged() ? "flagged" : "did not flag"));
            } else {
                kept.put(stage, decision);
                labels[stage.ordinal()] = decision.label();
            }
        }
        boolean gapFlagged = verdict.knowledgeGap().flagged();
        if (knowledgeGap == null) {
            problems.add(Verdict.KNOWLEDGE_GAP + ": no decision");
        } else if (!knowledgeGap.fits(gapFlagged)) {
            problems.add(Verdict.KNOWLEDGE_GAP + ": " + knowledgeGap.id() + " does not fit a gap raglog "
                    + (gapFlagged ? "flagged" : "did not flag"));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("review of run " + verdict.runId() + ": " + String.join("; ", problems));
        }
        return new Review(SCHEMA_V1, verdict.runId(), verdict.pipeline(), verdict.question(), verdict.answer(),
                new LabelStages(labels[0], labels[1], labels[2], labels[3], labels[4], labels[5]), knowledgeGap.label() == 1,
                answerCorrect, reviewer.strip(), reviewedAt, note == null || note.isBlank() ? null : note.strip(),
                Decisions.of(kept, knowledgeGap), VerdictAudit.of(verdict));
    }

    /** The stages raglog flagged and the reviewer found sound: its false positives on this run. */
    public List<Stage> rejected() {
        return having(StageReview.REJECTED);
    }

    /** The stages raglog did not flag and the reviewer found faulty: what it missed on this run. */
    public List<Stage> added() {
        return having(StageReview.ADDED);
    }

    private List<Stage> having(StageReview decision) {
        List<Stage> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (decisions.get(stage) == decision) {
                out.add(stage);
            }
        }
        return out;
    }

    /**
     * This review as a {@code raglog.label/v3} line for {@code train}, {@code evaluate} and {@code thresholds}.
     * What only a simulator knows stays empty: no question id (the run id stands in), no run hint, no generator
     * event id, no reference answer or evidence chunks. The fault starts at the first faulty stage, found by a person
     * ({@code natural}); the answer counts as wrong unless the reviewer said it was right.
     */
    public Label toLabel() {
        Stage first = null;
        for (Stage stage : Stage.values()) {
            if (stages.faulty(stage)) {
                first = stage;
                break;
            }
        }
        return new Label(SchemaIds.LABEL_V3, runId, pipeline, LABEL_PROFILE, runId, question, null, null, stages,
                first == null ? null : first.id(), first == null ? null : first.id() + ".reviewed",
                first == null ? null : Label.ORIGIN_NATURAL, note, Boolean.TRUE.equals(answerCorrect), !knowledgeGap,
                null, answer, List.of(), verdict == null ? null : verdict.scoredAt(), knowledgeGap);
    }
}

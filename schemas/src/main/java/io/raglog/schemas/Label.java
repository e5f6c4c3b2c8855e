package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * The ground truth of one simulated run ({@code schemas/label.v4.json}; {@code label.v1.json} to {@code label.v3.json}
 * lines are still read), written by the simulator next to the calls it produced. Labels join the runs raglog assembles by
 * {@code runId}, which is computed with {@link RunIds} exactly as run assembly computes it.
 *
 * @param profile the simulator profile (the vendor stack) that produced the run
 * @param runHint the hint the run's calls carried, null when the pipeline sent none
 * @param generatorEventId event id of the generator call that closed the run
 * @param stages per stage: 1 faulty, 0 sound, null when the pipeline has no such stage
 * @param faultStage the stage the fault started in (the injected one, else the first naturally faulty one); null
 *     when every stage is sound
 * @param faultType e.g. {@code retrieve.missing_evidence}; null when every stage is sound
 * @param origin {@code injected} or {@code natural}; null when every stage is sound
 * @param faultDetail one human sentence on what went wrong, null when nothing did
 * @param answerCorrect whether the final answer is right (an abstention is right for an unanswerable question)
 * @param expectedAnswer the reference answer, null for an unanswerable question
 * @param evidenceChunkIds ids of the chunks that hold the reference answer (empty when unanswerable)
 * @param knowledgeGap the corpus holds no answer to the question: a fault of the content, owned by whoever writes it,
 *     not of a stage (v2). A v1 line has none; it is read as {@code !isAnswerable}, which is how the simulator
 *     decided it then too
 * @param session the run's place in its simulated user's session (v4): the ground truth of re-asks; null in earlier
 *     versions and when the simulation had no sessions, and then left out of the line, so such a label is written as
 *     v3 wrote it
 */
public record Label(
        String schema,
        String runId,
        String pipeline,
        String profile,
        String questionId,
        String question,
        String runHint,
        String generatorEventId,
        LabelStages stages,
        String faultStage,
        String faultType,
        String origin,
        String faultDetail,
        boolean answerCorrect,
        boolean isAnswerable,
        String expectedAnswer,
        String answer,
        List<String> evidenceChunkIds,
        Instant startedAt,
        Boolean knowledgeGap,
        @JsonInclude(JsonInclude.Include.NON_NULL) LabelSession session) {

    public Label {
        if (knowledgeGap == null) {
            knowledgeGap = !isAnswerable;
        }
    }

    /** A label without a session (the v3 shape). */
    public Label(String schema, String runId, String pipeline, String profile, String questionId, String question,
            String runHint, String generatorEventId, LabelStages stages, String faultStage, String faultType,
            String origin, String faultDetail, boolean answerCorrect, boolean isAnswerable, String expectedAnswer,
            String answer, List<String> evidenceChunkIds, Instant startedAt, Boolean knowledgeGap) {
        this(schema, runId, pipeline, profile, questionId, question, runHint, generatorEventId, stages, faultStage,
                faultType, origin, faultDetail, answerCorrect, isAnswerable, expectedAnswer, answer, evidenceChunkIds,
                startedAt, knowledgeGap, null);
    }

    /** This label with its run's place in a simulated session (and the v4 schema it then needs). */
    public Label withSession(LabelSession s) {
        return new Label(SchemaIds.LABEL_V4, runId, pipeline, profile, questionId, question, runHint, generatorEventId,
                stages, faultStage, faultType, origin, faultDetail, answerCorrect, isAnswerable, expectedAnswer, answer,
                evidenceChunkIds, startedAt, knowledgeGap, s);
    }

    /** A label without the knowledge-gap field (the v1 shape): the gap is then the question's being unanswerable. */
    public Label(String schema, String runId, String pipeline, String profile, String questionId, String question,
            String runHint, String generatorEventId, LabelStages stages, String faultStage, String faultType,
            String origin, String faultDetail, boolean answerCorrect, boolean isAnswerable, String expectedAnswer,
            String answer, List<String> evidenceChunkIds, Instant startedAt) {
        this(schema, runId, pipeline, profile, questionId, question, runHint, generatorEventId, stages, faultStage,
                faultType, origin, faultDetail, answerCorrect, isAnswerable, expectedAnswer, answer, evidenceChunkIds,
                startedAt, null);
    }

    public static final String ORIGIN_INJECTED = "injected";
    public static final String ORIGIN_NATURAL = "natural";

    /** A stage's output was faulty (a knowledge gap alone is not: no stage could have answered). */
    public boolean faulty() {
        return stages.anyFaulty();
    }

    /** The run's only trouble is that the corpus cannot answer it: sound for every stage, owned by the content. */
    public boolean onlyKnowledgeGap() {
        return knowledgeGap && !faulty();
    }
}

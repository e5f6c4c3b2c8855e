package io.raglog.schemas;

import java.time.Instant;
import java.util.List;

/**
 * The ground truth of one simulated run ({@code schemas/label.v1.json}), written by the simulator next to the calls
 * it produced. Labels join the runs raglog assembles by {@code runId}, which is computed with {@link RunIds} exactly
 * as run assembly computes it.
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
        Instant startedAt) {

    public static final String ORIGIN_INJECTED = "injected";
    public static final String ORIGIN_NATURAL = "natural";

    public boolean faulty() {
        return stages.anyFaulty();
    }
}

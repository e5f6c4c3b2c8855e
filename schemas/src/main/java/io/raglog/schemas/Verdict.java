package io.raglog.schemas;

import java.time.Instant;
import java.util.List;

/**
 * The scoring step's decision on one run ({@code schemas/verdict.v1.json}): per stage the ensemble's fault
 * probability, the stage's threshold, whether it is flagged and, when it is, why and what to try; the run's flagged
 * stages; whether the reranker-reassignment rule moved a retrieval flag; what the LLM checks cost.
 *
 * @param answer the generator's final answer, null when the run had none
 * @param flaggedStages the flagged stages in pipeline order, after the reassignment rule
 * @param reassigned true when the fixed rule cleared the retrieval flag and flagged the reranker instead
 * @param llm the LLM checks' usage for this run; {@code degraded} when a check could not be answered
 * @param modelBundle id of the model bundle that scored the run
 */
public record Verdict(
        String schema,
        String runId,
        String pipeline,
        String question,
        String answer,
        VerdictStages stages,
        List<Stage> flaggedStages,
        boolean reassigned,
        LlmUsage llm,
        String modelBundle,
        Instant scoredAt) {

    /** The {@code schema} value; kept here like {@link RunFeatures#SCHEMA_V1}, so {@link SchemaIds} stays untouched. */
    public static final String SCHEMA_V1 = "raglog.verdict/v1";

    public boolean flagged() {
        return flaggedStages != null && !flaggedStages.isEmpty();
    }
}

package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The scoring step's decision on one run ({@code schemas/verdict.v4.json}; v1 to v3 still read): per stage the
 * ensemble's fault probability, the stage's threshold, whether it is flagged and, when it is, why and what to try; the
 * run's flagged stages; whether the reranker-reassignment rule moved a retrieval flag; whether the question asks what
 * the knowledge base lacks; what the LLM checks cost.
 *
 * @param answer the generator's final answer, null when the run had none
 * @param flaggedStages the flagged stages in pipeline order, after the reassignment rule
 * @param reassigned true when the fixed rule cleared the retrieval flag and flagged the reranker instead
 * @param knowledgeGap whether the question asks what the knowledge base lacks (v2), apart from the stage flags; a v1
 *     verdict is read with {@link KnowledgeGap#undecided()}
 * @param llm the LLM checks' usage for this run; {@code degraded} when a check could not be answered
 * @param modelBundle id of the model bundle that scored the run
 * @param trace the run's trace and each stage's span, when its calls came in as OTLP spans; null (and not written)
 *     otherwise, so a verdict of a proxy-captured run reads as before
 * @param thresholds which thresholds decided the run (v4): the bundle's, or a pipeline override's; null (and not
 *     written) in a verdict read from v1 to v3
 * @param userFeedback what users said about the run (v4), once feedback joined it; null (and not written) before, so
 *     a scored verdict reads as before
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
        KnowledgeGap knowledgeGap,
        LlmUsage llm,
        String modelBundle,
        Instant scoredAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) TraceLink trace,
        @JsonInclude(JsonInclude.Include.NON_NULL) ThresholdsUsed thresholds,
        @JsonInclude(JsonInclude.Include.NON_NULL) UserFeedback userFeedback) {

    /** The {@code schema} value; kept here like {@link RunFeatures#SCHEMA_V1}, so {@link SchemaIds} stays untouched. */
    public static final String SCHEMA_V1 = "raglog.verdict/v1";
    /** The queue reason and fault-rate series name of a knowledge gap. */
    public static final String KNOWLEDGE_GAP = "knowledge_gap";
    /** v2 adds {@code knowledge_gap} and {@code queue_reasons}. */
    public static final String SCHEMA_V2 = "raglog.verdict/v2";
    /** v3 adds the stage {@code assemble}; v1 and v2 verdicts are still read (it is then absent). */
    public static final String SCHEMA_V3 = "raglog.verdict/v3";
    /**
     * v4 adds {@code thresholds} (which thresholds decided the run), {@code user_feedback} and the queue reason
     * {@code user_feedback}; v1 to v3 verdicts are still read (both are then null).
     */
    public static final String SCHEMA_V4 = "raglog.verdict/v4";
    /** The queue reason of a run users disliked. */
    public static final String USER_FEEDBACK = "user_feedback";

    public Verdict {
        if (knowledgeGap == null) {
            knowledgeGap = KnowledgeGap.undecided();
        }
    }

    /** A verdict that says which thresholds decided it, without user feedback: what scoring writes. */
    public Verdict(String schema, String runId, String pipeline, String question, String answer, VerdictStages stages,
            List<Stage> flaggedStages, boolean reassigned, KnowledgeGap knowledgeGap, LlmUsage llm,
            String modelBundle, Instant scoredAt, TraceLink trace, ThresholdsUsed thresholds) {
        this(schema, runId, pipeline, question, answer, stages, flaggedStages, reassigned, knowledgeGap, llm,
                modelBundle, scoredAt, trace, thresholds, null);
    }

    /** A verdict that does not say which thresholds decided it (the shape before v4). */
    public Verdict(String schema, String runId, String pipeline, String question, String answer, VerdictStages stages,
            List<Stage> flaggedStages, boolean reassigned, KnowledgeGap knowledgeGap, LlmUsage llm,
            String modelBundle, Instant scoredAt, TraceLink trace) {
        this(schema, runId, pipeline, question, answer, stages, flaggedStages, reassigned, knowledgeGap, llm,
                modelBundle, scoredAt, trace, null, null);
    }

    /** A verdict without a trace: the run's calls were not spans (the shape before traces were linked). */
    public Verdict(String schema, String runId, String pipeline, String question, String answer, VerdictStages stages,
            List<Stage> flaggedStages, boolean reassigned, KnowledgeGap knowledgeGap, LlmUsage llm,
            String modelBundle, Instant scoredAt) {
        this(schema, runId, pipeline, question, answer, stages, flaggedStages, reassigned, knowledgeGap, llm,
                modelBundle, scoredAt, null, null, null);
    }

    public Verdict withTrace(TraceLink link) {
        return new Verdict(schema, runId, pipeline, question, answer, stages, flaggedStages, reassigned, knowledgeGap,
                llm, modelBundle, scoredAt, link, thresholds, userFeedback);
    }

    /** This verdict with what users said about its run: a v4 verdict. */
    public Verdict withUserFeedback(UserFeedback feedback) {
        return new Verdict(SCHEMA_V4, runId, pipeline, question, answer, stages, flaggedStages, reassigned,
                knowledgeGap, llm, modelBundle, scoredAt, trace, thresholds, feedback);
    }

    /** Users disliked the run's answer (a thumbs-down, a low score, a correction, a re-ask). */
    public boolean disliked() {
        return userFeedback != null && userFeedback.disliked();
    }

    public boolean flagged() {
        return flaggedStages != null && !flaggedStages.isEmpty();
    }

    /**
     * A stage is flagged, a knowledge gap was decided, or users disliked the answer: what the debugging queue
     * receives.
     */
    public boolean queued() {
        return flagged() || knowledgeGap.flagged() || disliked();
    }

    /**
     * Why the run is in the debugging queue, for whoever picks it up: the flagged stages' ids (the pipeline's owners),
     * {@code knowledge_gap} (the content's owner) and {@code user_feedback} (users disliked the answer, whether or
     * not raglog flagged anything); empty when it is not queued. Written, derived again on read.
     */
    @JsonProperty(value = "queue_reasons", access = JsonProperty.Access.READ_ONLY)
    public List<String> queueReasons() {
        List<String> out = new ArrayList<>();
        if (flaggedStages != null) {
            flaggedStages.forEach(stage -> out.add(stage.id()));
        }
        if (knowledgeGap.flagged()) {
            out.add(KNOWLEDGE_GAP);
        }
        if (disliked()) {
            out.add(USER_FEEDBACK);
        }
        return out;
    }
}

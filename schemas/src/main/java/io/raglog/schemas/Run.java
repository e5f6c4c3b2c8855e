package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * One question's harmonized run ({@code schemas/run.v3.json}; v1 and v2 runs are still read): what every stage
 * received and produced, whatever vendor APIs the pipeline called. Everything downstream (checks, scoring, sinks)
 * reads this and nothing else.
 *
 * @param runId stable across replays of the same calls: derived from the pipeline and the run hint, or from the
 *     generator call when the run was linked by content
 * @param incomplete flushed by a timer before a generator call closed it
 * @param httpErrors calls of this run answered with an error status (retried or not)
 * @param knownPassages the pipeline's known passages that match the question, beside what retrieval returned; set by
 *     the job before the checks (null on the runs topic, in runs written before it existed and when nothing is known)
 * @param embeddingMismatch the run's query embedding does not match its index's model or dimension; set by the job's
 *     embedding-drift operator before the checks (null on the runs topic and when nothing is wrong or known)
 * @param session the user session the run's calls carried ({@link CallEvent#session()}, the first call that has one);
 *     null when none did. Optional within run v2 and v3, left out when null: re-ask detection keys on it
 */
public record Run(
        String schema,
        String runId,
        String pipeline,
        String runHint,
        String question,
        Instant startedAt,
        Instant endedAt,
        boolean incomplete,
        String incompleteReason,
        List<String> callIds,
        List<HttpError> httpErrors,
        RunStages stages,
        @JsonInclude(JsonInclude.Include.NON_NULL) KnownPassages knownPassages,
        @JsonInclude(JsonInclude.Include.NON_NULL) EmbeddingMismatch embeddingMismatch,
        @JsonInclude(JsonInclude.Include.NON_NULL) String session) {

    /** A run as assembled, before the knowledge base's second opinion. */
    public Run(String schema, String runId, String pipeline, String runHint, String question, Instant startedAt,
            Instant endedAt, boolean incomplete, String incompleteReason, List<String> callIds,
            List<HttpError> httpErrors, RunStages stages) {
        this(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason, callIds,
                httpErrors, stages, null, null);
    }

    /** A run with the knowledge base's second opinion, before the embedding check (the shape before it existed). */
    public Run(String schema, String runId, String pipeline, String runHint, String question, Instant startedAt,
            Instant endedAt, boolean incomplete, String incompleteReason, List<String> callIds,
            List<HttpError> httpErrors, RunStages stages, KnownPassages knownPassages) {
        this(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason, callIds,
                httpErrors, stages, knownPassages, null);
    }

    /** A run without a session (the shape before sessions were recorded). */
    public Run(String schema, String runId, String pipeline, String runHint, String question, Instant startedAt,
            Instant endedAt, boolean incomplete, String incompleteReason, List<String> callIds,
            List<HttpError> httpErrors, RunStages stages, KnownPassages knownPassages,
            EmbeddingMismatch embeddingMismatch) {
        this(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason, callIds,
                httpErrors, stages, knownPassages, embeddingMismatch, null);
    }

    public Run withSession(String value) {
        return new Run(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason,
                callIds, httpErrors, stages, knownPassages, embeddingMismatch, value);
    }

    public Run withKnownPassages(KnownPassages known) {
        return new Run(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason,
                callIds, httpErrors, stages, known, embeddingMismatch, session);
    }

    public Run withEmbeddingMismatch(EmbeddingMismatch mismatch) {
        return new Run(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason,
                callIds, httpErrors, stages, knownPassages, mismatch, session);
    }

    public boolean has(Stage stage) {
        return stages.get(stage).present();
    }
}

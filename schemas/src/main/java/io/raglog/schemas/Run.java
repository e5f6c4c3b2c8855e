package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * One question's harmonized run ({@code schemas/run.v1.json}): what every stage received and produced, whatever
 * vendor APIs the pipeline called. Everything downstream (checks, scoring, sinks) reads this and nothing else.
 *
 * @param runId stable across replays of the same calls: derived from the pipeline and the run hint, or from the
 *     generator call when the run was linked by content
 * @param incomplete flushed by a timer before a generator call closed it
 * @param httpErrors calls of this run answered with an error status (retried or not)
 * @param knownPassages the pipeline's known passages that match the question, beside what retrieval returned; set by
 *     the job before the checks (null on the runs topic, in runs written before it existed and when nothing is known)
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
        @JsonInclude(JsonInclude.Include.NON_NULL) KnownPassages knownPassages) {

    /** A run as assembled, before the knowledge base's second opinion. */
    public Run(String schema, String runId, String pipeline, String runHint, String question, Instant startedAt,
            Instant endedAt, boolean incomplete, String incompleteReason, List<String> callIds,
            List<HttpError> httpErrors, RunStages stages) {
        this(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason, callIds,
                httpErrors, stages, null);
    }

    public Run withKnownPassages(KnownPassages known) {
        return new Run(schema, runId, pipeline, runHint, question, startedAt, endedAt, incomplete, incompleteReason,
                callIds, httpErrors, stages, known);
    }

    public boolean has(Stage stage) {
        return stages.get(stage).present();
    }
}

package io.raglog.schemas;

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
        RunStages stages) {

    public boolean has(Stage stage) {
        return stages.get(stage).present();
    }
}

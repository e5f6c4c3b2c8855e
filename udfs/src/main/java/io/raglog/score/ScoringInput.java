package io.raglog.score;

import io.raglog.otel.TraceLinks;
import io.raglog.schemas.EmbeddingMismatch;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TraceLink;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the scoring step reads for one run: the checks' features, which stages the run actually had, and its answer.
 *
 * <p>Presence travels explicitly rather than being guessed from the features: a missing feature means "stage absent"
 * or "check not answered" (a degraded LLM check, economy mode), and the two must not be confused: an absent stage is
 * not scored, a present stage with missing features is scored on what is known.
 *
 * @param present the stages the run had (rewrite and rerank are optional)
 * @param answer the generator's answer, null when the run had none
 * @param embeddingMismatch the run's query embedding does not match its index's model (the drift operator's
 *     finding), null when it matches or nothing is known; it flags the embed stage whatever the models say
 * @param trace the run's trace and stage spans when its calls were OTLP spans, null otherwise; the verdict carries it
 */
public record ScoringInput(RunFeatures features, Set<Stage> present, String answer,
        EmbeddingMismatch embeddingMismatch, TraceLink trace) {

    public ScoringInput {
        present = present == null || present.isEmpty() ? EnumSet.noneOf(Stage.class) : EnumSet.copyOf(present);
    }

    public ScoringInput(RunFeatures features, Set<Stage> present, String answer) {
        this(features, present, answer, null, null);
    }

    public ScoringInput(RunFeatures features, Set<Stage> present, String answer,
            EmbeddingMismatch embeddingMismatch) {
        this(features, present, answer, embeddingMismatch, null);
    }

    /** The usual way in: the assembled run says which stages were present and what the answer was. */
    public static ScoringInput of(Run run, RunFeatures features) {
        Set<Stage> present = EnumSet.noneOf(Stage.class);
        for (Stage stage : Stage.values()) {
            if (run.stages() != null && run.stages().get(stage) != null && run.has(stage)) {
                present.add(stage);
            }
        }
        String answer = run.has(Stage.GENERATE) ? run.stages().generate().answer() : null;
        return new ScoringInput(features, present, answer, run.embeddingMismatch(), TraceLinks.of(run));
    }

    public boolean has(Stage stage) {
        return present.contains(stage);
    }
}

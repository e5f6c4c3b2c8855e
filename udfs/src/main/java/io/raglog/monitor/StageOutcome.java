package io.raglog.monitor;

import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * One present stage of one run, its knowledge-gap decision or its embedding check, as the fault-rate windows count it.
 *
 * @param series a stage id, {@link Verdict#KNOWLEDGE_GAP} (every run has that series) or
 *     {@link FaultRate#EMBEDDING_MISMATCH} (every complete run with an embed stage)
 */
public record StageOutcome(String pipeline, String series, boolean checked, boolean flagged) {

    public String key() {
        return pipeline + "\u001f" + series;
    }

    public static List<StageOutcome> of(Verdict verdict) {
        List<StageOutcome> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            StageVerdict v = verdict.stages().get(stage);
            if (v != null && v.present()) {
                out.add(new StageOutcome(verdict.pipeline(), stage.id(), true, v.flagged()));
            }
        }
        // the content owner's series: how often checked runs asked what the knowledge base lacks
        out.add(new StageOutcome(verdict.pipeline(), Verdict.KNOWLEDGE_GAP, true, verdict.knowledgeGap().flagged()));
        return out;
    }

    public static List<StageOutcome> notChecked(Run run) {
        List<StageOutcome> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (run.has(stage)) {
                out.add(new StageOutcome(run.pipeline(), stage.id(), false, false));
            }
        }
        out.add(new StageOutcome(run.pipeline(), Verdict.KNOWLEDGE_GAP, false, false));
        return out;
    }

    /** A run past the embedding drift check: flagged when its query model was not its index's. */
    public static List<StageOutcome> embeddingChecked(Run run) {
        if (run.incomplete() || !run.has(Stage.EMBED)) {
            return List.of();
        }
        return List.of(new StageOutcome(run.pipeline(), FaultRate.EMBEDDING_MISMATCH, true,
                run.embeddingMismatch() != null));
    }
}

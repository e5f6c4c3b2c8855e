package io.raglog.monitor;

import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import java.util.ArrayList;
import java.util.List;

/** One present stage of one run, as the fault-rate windows count it. */
public record StageOutcome(String pipeline, Stage stage, boolean checked, boolean flagged) {

    public String key() {
        return pipeline + "\u001f" + stage.id();
    }

    public static List<StageOutcome> of(Verdict verdict) {
        List<StageOutcome> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            StageVerdict v = verdict.stages().get(stage);
            if (v != null && v.present()) {
                out.add(new StageOutcome(verdict.pipeline(), stage, true, v.flagged()));
            }
        }
        return out;
    }

    public static List<StageOutcome> notChecked(Run run) {
        List<StageOutcome> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (run.has(stage)) {
                out.add(new StageOutcome(run.pipeline(), stage, false, false));
            }
        }
        return out;
    }
}

package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Recall by the kind of a run's root fault: the stage it started in flagged or not, sound runs left out. */
class FaultKindRecallTest {

    private static Label label(String faultStage, String faultType, String origin) {
        return new Label(SchemaIds.LABEL_V3, "run-" + faultType + origin, "p", "profile", "q", "Who?", null, null,
                new LabelStages(0, 0, 0, 0, 0, 0), faultStage, faultType, origin, null, false, true, "x", "y",
                List.of(), null, false);
    }

    @Test
    void countsARunAsCaughtOnlyWhenTheStageItsFaultStartedInIsFlagged() {
        Set<Stage> all = EnumSet.allOf(Stage.class);
        FaultKindRecall.Tally tally = new FaultKindRecall.Tally();
        tally.add(label("assemble", "assemble.evidence_buried", Label.ORIGIN_INJECTED), all, EnumSet.of(Stage.ASSEMBLE));
        tally.add(label("assemble", "assemble.evidence_buried", Label.ORIGIN_INJECTED), all, EnumSet.of(Stage.GENERATE));
        tally.add(label("retrieve", "retrieve.missing_evidence", Label.ORIGIN_NATURAL), all, EnumSet.of(Stage.RETRIEVE));
        tally.add(label(null, null, null), all, EnumSet.of(Stage.RETRIEVE)); // sound: not a fault kind
        tally.add(label("assemble", "assemble.evidence_cut", Label.ORIGIN_INJECTED), EnumSet.of(Stage.GENERATE),
                EnumSet.noneOf(Stage.class)); // assembly not scored: no verdict to count

        Map<String, FaultKindRecall> report = tally.report();

        assertThat(report).containsOnlyKeys("assemble.evidence_buried/injected", "retrieve.missing_evidence/natural");
        assertThat(report.get("assemble.evidence_buried/injected").recall()).isEqualTo(0.5);
        assertThat(report.get("retrieve.missing_evidence/natural").caught()).isEqualTo(1);
    }
}

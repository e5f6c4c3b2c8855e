package io.raglog.cli.review;

import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import java.util.List;

/**
 * A queued run's verdict as a {@code raglog.label/v3} line when no person has reviewed it: the flags taken for the
 * truth (flagged 1, scored and not flagged 0, absent null). Useful to fit a team's thresholds on what raglog already
 * says, never as evidence of how well it says it: evaluating a bundle on its own flags only measures agreement.
 */
final class ExportedLabel {

    /** The {@code profile} of a label made from a verdict's flags. */
    static final String VERDICT_PROFILE = "verdict";

    private ExportedLabel() {}

    /**
     * The answer counts as wrong (nobody said otherwise) and what only a simulator knows stays empty, as in
     * {@link io.raglog.schemas.Review#toLabel()}.
     */
    static Label of(Verdict verdict) {
        Integer[] labels = new Integer[Stage.values().length];
        Stage first = null;
        for (Stage stage : Stage.values()) {
            StageVerdict scored = verdict.stages().get(stage);
            if (scored.present()) {
                labels[stage.ordinal()] = scored.flagged() ? 1 : 0;
                if (scored.flagged() && first == null) {
                    first = stage;
                }
            }
        }
        boolean gap = verdict.knowledgeGap().flagged();
        return new Label(SchemaIds.LABEL_V3, verdict.runId(), verdict.pipeline(), VERDICT_PROFILE, verdict.runId(),
                verdict.question(), null, null, new LabelStages(labels[0], labels[1], labels[2], labels[3], labels[4],
                        labels[5]),
                first == null ? null : first.id(), first == null ? null : first.id() + ".flagged",
                first == null ? null : Label.ORIGIN_NATURAL, null, false, !gap, null, verdict.answer(), List.of(),
                verdict.scoredAt(), gap);
    }
}

package io.raglog.checks;

import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import java.util.List;

/** The cheap, synchronous lexical checks of every stage. A stage the run lacks leaves its features missing. */
public final class RuleChecks {

    /** The check of the finding that a run's own relevance gate stopped it (the repair hint then names the gate). */
    public static final String RELEVANCE_GATE_CHECK = "generate.relevance_gate";

    private RuleChecks() {}

    /** Whether the checks found that the run's own relevance gate stopped it (its generate stage is the gate). */
    public static boolean stoppedByGate(RunFeatures features) {
        if (features.findings() != null) {
            for (Finding finding : features.findings()) {
                if (RELEVANCE_GATE_CHECK.equals(finding.check())) {
                    return true;
                }
            }
        }
        return false;
    }

    public static void apply(Run run, FeatureVector features, List<Finding> findings) {
        RewriteRules.apply(run, features, findings);
        EmbedRules.apply(run, features, findings);
        RetrieveRules.apply(run, features, findings);
        RerankRules.apply(run, features, findings);
        AssembleRules.apply(run, features, findings);
        GenerateRules.apply(run, features, findings);
    }
}

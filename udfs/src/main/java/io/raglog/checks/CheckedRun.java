package io.raglog.checks;

import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import java.util.List;
import java.util.Map;

/**
 * A run with its cheap-check results, on its way to the LLM checks.
 *
 * @param features only the features already known, by name (missing ones are filled in at assembly)
 * @param tier the tier gate's decision in tiered mode ({@code skipped}: no LLM checks, {@code checked}); null when no
 *     gate ran
 */
public record CheckedRun(Run run, Map<String, Double> features, List<Finding> findings, String tier) {

    public CheckedRun(Run run, Map<String, Double> features, List<Finding> findings) {
        this(run, features, findings, null);
    }

    public CheckedRun withTier(String newTier) {
        return new CheckedRun(run, features, findings, newTier);
    }
}

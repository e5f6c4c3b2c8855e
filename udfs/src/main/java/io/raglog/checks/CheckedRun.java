package io.raglog.checks;

import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import java.util.List;
import java.util.Map;

/**
 * A run with its cheap-check results, on its way to the LLM checks.
 *
 * @param features only the features already known, by name (missing ones are filled in at assembly)
 */
public record CheckedRun(Run run, Map<String, Double> features, List<Finding> findings) {}

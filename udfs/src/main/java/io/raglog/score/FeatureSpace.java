package io.raglog.score;

import io.raglog.checks.FeatureList;
import io.raglog.checks.FeatureValues;
import io.raglog.schemas.RunFeatures;
import java.util.List;
import java.util.Map;

/**
 * The named, versioned feature list a model bundle was trained on, and the one way a run's features become the raw
 * row its models read: bundle order, missing (absent, null, NaN or infinite) as {@link Double#NaN}. What each model
 * then does with NaN is its own business: XGBoost routes it natively, the other two impute (see {@link Imputer}).
 *
 * @param version the checks' feature-list version, e.g. {@code raglog.checks/v1}
 * @param names the features in the order of a row
 */
public record FeatureSpace(String version, List<String> names) {

    public FeatureSpace {
        if (version == null || version.isBlank()) {
            throw new IllegalArgumentException("a feature space needs its feature-list version");
        }
        names = List.copyOf(names);
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a feature space needs at least one feature");
        }
    }

    public int size() {
        return names.size();
    }

    /**
     * The raw row of a run. Features that are not in this list are ignored; a list version that is neither this one
     * nor one that only adds to it ({@link FeatureList#extendsList}) is refused, because reading a vector whose
     * features were redefined silently scores the wrong values.
     */
    public double[] row(RunFeatures features) {
        return row(features, new double[names.size()]);
    }

    /** The raw row of a run written into {@code into} (at least {@link #size()} long), which is returned. */
    public double[] row(RunFeatures features, double[] into) {
        if (!FeatureList.extendsList(features.featureListVersion(), version)) {
            throw new IllegalArgumentException("run " + features.runId() + " has features of list "
                    + features.featureListVersion() + " but the model bundle was trained on " + version);
        }
        return row(features.features(), into);
    }

    public double[] row(Map<String, Double> values) {
        return row(values, new double[names.size()]);
    }

    private double[] row(Map<String, Double> values, double[] row) {
        if (values instanceof FeatureValues known) { // the same numbers, read without boxing each
            for (int i = 0; i < names.size(); i++) {
                row[i] = known.finiteOrNaN(names.get(i));
            }
            return row;
        }
        for (int i = 0; i < names.size(); i++) {
            Double v = values == null ? null : values.get(names.get(i));
            row[i] = v == null || v.isNaN() || v.isInfinite() ? Double.NaN : v;
        }
        return row;
    }
}

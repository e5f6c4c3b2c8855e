package io.raglog.checks;

import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;

/** Rules and vectors: the synchronous checks that run on every run before the expensive LLM checks. */
public final class CheapChecks {

    private final VectorChecks vectors;
    private final boolean vectorsOn;

    public CheapChecks(Embedder embedder) {
        this.vectors = new VectorChecks(embedder);
        this.vectorsOn = embedder != null;
    }

    /** Rules only, no embedding model: the vector features stay missing (a benchmark baseline). */
    public static CheapChecks rulesOnly() {
        return new CheapChecks(null);
    }

    /** Rules, then vectors when this has an embedder: one run's cheap checks in one go. */
    public CheckedRun apply(Run run) {
        FeatureVector features = new FeatureVector();
        List<Finding> findings = new ArrayList<>();
        RuleChecks.apply(run, features, findings);
        if (vectorsOn) {
            vectors.apply(run, features, findings);
        }
        return new CheckedRun(run, features.known(), findings);
    }

    /**
     * The vector checks on top of a run's rule checks, for when they run apart (on the embedding thread while the LLM
     * calls are out): the same features and findings, in the same order, as {@link #apply} gives.
     */
    public CheckedRun addVectors(CheckedRun rulesChecked) {
        if (!vectorsOn) {
            return rulesChecked;
        }
        FeatureVector features = FeatureVector.of(rulesChecked.features());
        List<Finding> findings = new ArrayList<>(rulesChecked.findings());
        vectors.apply(rulesChecked.run(), features, findings);
        return new CheckedRun(rulesChecked.run(), features.known(), findings, rulesChecked.tier());
    }
}

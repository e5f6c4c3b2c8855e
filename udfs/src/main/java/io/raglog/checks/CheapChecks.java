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

    public CheckedRun apply(Run run) {
        FeatureVector features = new FeatureVector();
        List<Finding> findings = new ArrayList<>();
        RuleChecks.apply(run, features, findings);
        if (vectorsOn) {
            vectors.apply(run, features, findings);
        }
        return new CheckedRun(run, features.known(), findings);
    }
}

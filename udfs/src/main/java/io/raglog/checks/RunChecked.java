package io.raglog.checks;

import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;

/** A run and its checked feature vector, kept together so scoring sees which stages were present and the answer. */
public record RunChecked(Run run, RunFeatures features) {}

package io.raglog.job;

import io.raglog.score.ModelBundle;

/** The model bundle raglog ships inside the job, trained by the documented command in the model card. */
public final class DefaultBundle {

    /** Classpath prefix of the shipped bundle (its files live in {@code job/src/main/resources/bundles/default}). */
    public static final String RESOURCE = "bundles/default";

    private DefaultBundle() {}

    public static ModelBundle load() {
        return ModelBundle.loadResource(RESOURCE);
    }
}

package io.raglog.score.flink;

import io.raglog.score.ModelBundle;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where a task finds its model bundle: a directory (a mounted volume, {@code --bundle B}) or classpath resources
 * inside the job jar (the shipped default). Serializable, so the function carries the location, not the models.
 */
public record BundleLocation(String directory, String resourcePrefix) implements Serializable {

    public BundleLocation {
        if ((directory == null) == (resourcePrefix == null)) {
            throw new IllegalArgumentException("a bundle location is either a directory or a classpath prefix");
        }
    }

    public static BundleLocation directory(Path dir) {
        return new BundleLocation(dir.toString(), null);
    }

    public static BundleLocation classpath(String prefix) {
        return new BundleLocation(null, prefix);
    }

    public ModelBundle load() {
        return directory != null ? ModelBundle.load(Path.of(directory)) : ModelBundle.loadResource(resourcePrefix);
    }

    @Override
    public String toString() {
        return directory != null ? directory : "classpath:" + resourcePrefix;
    }
}

package io.raglog.helm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Files of the repository the chart must agree with (the parent pom, the Dockerfiles, the job's sources). */
final class Repo {

    private Repo() {}

    /** The repository root: the tests run in helm/, or at the root in an IDE. */
    static Path root() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("helm").resolve("raglog")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root with helm/raglog above " + here);
    }

    static String read(String relative) {
        try {
            return Files.readString(root().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code <name>value</name>} property of the parent pom. */
    static String pomProperty(String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">")
                .matcher(read("pom.xml"));
        if (!m.find()) {
            throw new AssertionError("the parent pom has no property " + name);
        }
        return m.group(1).trim();
    }
}

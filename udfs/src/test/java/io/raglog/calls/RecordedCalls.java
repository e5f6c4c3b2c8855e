package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/** The recorded calls of every vendor (test resources under {@code /wire}), for tests that hold a way of reading to all. */
public final class RecordedCalls {

    private RecordedCalls() {}

    /** Their files, sorted; fails when fewer than 40 are found, so that a lost resource path cannot pass a test empty. */
    public static List<Path> files() throws IOException {
        List<Path> fixtures;
        try (Stream<Path> files = Files.walk(Paths.get(RecordedCalls.class.getResource("/wire").toURI()))) {
            fixtures = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        assertThat(fixtures).hasSizeGreaterThan(40);
        return fixtures;
    }
}

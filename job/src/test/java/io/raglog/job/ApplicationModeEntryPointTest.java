package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink operator calls this class's {@code main} inside the JobManager. Had it exited the JVM, these tests would
 * take the test JVM down with them instead of failing.
 */
class ApplicationModeEntryPointTest {

    @TempDir
    Path dir;

    @Test
    void shouldRunTheCommandWithItsConfigAndReturn() throws Exception {
        Path config = Files.writeString(dir.resolve("raglog.yaml"),
                "kafka:\n  bootstrap: kafka.raglog.svc:9092\nflink:\n  parallelism: 6\n");

        String out = stdoutOf(() -> ApplicationModeEntryPoint.main(
                new String[] {"run", "--config", config.toString(), "--print-config"}));

        assertThat(out).contains("kafka.bootstrap = kafka.raglog.svc:9092    (YAML " + config + ")")
                .contains("flink.parallelism = 6    (YAML " + config + ")");
    }

    @Test
    void shouldThrowTheCommandsOwnErrorSoFlinkReportsTheCause() throws Exception {
        Path config = Files.writeString(dir.resolve("raglog.yaml"), "kafka:\n  bootstrapp: kafka:9092\n");

        assertThatThrownBy(() -> ApplicationModeEntryPoint.main(new String[] {"run", "--config", config.toString()}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kafka.bootstrapp");
    }

    @Test
    void shouldRefuseArgumentsThatNameNoCommand() {
        assertThatThrownBy(() -> ApplicationModeEntryPoint.main(new String[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run --config");
    }

    private interface Action {
        void run() throws Exception;
    }

    private static String stdoutOf(Action action) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}

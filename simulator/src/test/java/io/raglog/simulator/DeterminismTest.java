package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.simulator.output.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One seed, one output: byte for byte, whatever ran before in the same JVM. */
class DeterminismTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteIdenticalFilesForTheSameSeed() throws Exception {
        SimulatorOptions options = SimulatorOptions.of("all", 300, 42).withIndexEvery(10);
        SimulatedLogs.simulate(options, dir.resolve("a"));
        // A different simulation in between must not leak into the next one (no shared random or clock state).
        SimulatedLogs.simulate(SimulatorOptions.of("ollama-jina-vllm", 50, 3), dir.resolve("other"));
        SimulatedLogs.simulate(new Simulator(options), dir.resolve("b"));
        for (String file : new String[] {FileSink.CALLS, FileSink.TRACES, FileSink.LABELS, FileSink.SUMMARY}) {
            assertThat(Files.mismatch(dir.resolve("a").resolve(file), dir.resolve("b").resolve(file)))
                    .as(file).isEqualTo(-1L);
        }
        assertThat(Files.size(dir.resolve("a").resolve(FileSink.CALLS))).isGreaterThan(1_000_000);
    }

    @Test
    void shouldWriteDifferentRunsForAnotherSeed() throws Exception {
        SimulatedLogs a = SimulatedLogs.simulate(SimulatorOptions.of("all", 100, 1), dir.resolve("a"));
        SimulatedLogs b = SimulatedLogs.simulate(SimulatorOptions.of("all", 100, 2), dir.resolve("b"));
        assertThat(a.labels).extracting(l -> l.questionId())
                .isNotEqualTo(b.labels.stream().map(l -> l.questionId()).toList());
    }

    @Test
    void shouldDrawTheSameRunsWhateverTheFaultRate() {
        // Questions and arrival times come first on each run's stream, so a fault rate changes faults, not questions.
        SimulatedLogs none = SimulatedLogs.simulate(SimulatorOptions.of("all", 60, 5).withFaultRate(0),
                dir.resolve("none"));
        SimulatedLogs many = SimulatedLogs.simulate(SimulatorOptions.of("all", 60, 5).withFaultRate(1),
                dir.resolve("many"));
        assertThat(none.labels).extracting(l -> l.questionId())
                .containsExactlyElementsOf(many.labels.stream().map(l -> l.questionId()).toList());
        assertThat(none.labels).noneSatisfy(l -> assertThat(l.origin()).isEqualTo("injected"));
        assertThat(many.labels).allSatisfy(l -> assertThat(l.origin()).isIn("injected", "natural", null));
        assertThat(many.labels.stream().filter(l -> "injected".equals(l.origin())).count()).isGreaterThan(50);
    }
}

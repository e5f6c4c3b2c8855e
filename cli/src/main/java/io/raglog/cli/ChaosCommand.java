package io.raglog.cli;

import io.raglog.cli.chaos.Chaos;
import io.raglog.cli.chaos.ChaosReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Failure drills at scale: task managers lost mid-stream, a savepoint restore after a job upgrade, an Elasticsearch
 * outage and a Kafka broker restart, thousands of spoiled messages; each audited against the simulator's ground
 * truth. Exits non-zero when any run was lost or repeated anywhere.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Break things under the running job and count what comes out: task managers lost, a savepoint",
            "restore, Elasticsearch down, the Kafka broker restarted, spoiled input. Local Flink, in-process Kafka,",
            "a local Elasticsearch node, the offline judge. See docs/reliability.md."})
public final class ChaosCommand implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "300", description = "Simulated runs per scenario (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seconds", defaultValue = "60",
            description = "How long Elasticsearch stays down, its restart aside (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--losses", defaultValue = "3",
            description = "Task managers lost during the task-manager scenario (default: ${DEFAULT-VALUE}).")
    int losses;

    @Option(names = "--spoiled", defaultValue = "10000",
            description = "Spoiled messages sent through the job (default: ${DEFAULT-VALUE}).")
    int spoiled;

    @Option(names = "--seed", defaultValue = "7", description = "Simulation seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--only", split = ",", paramLabel = "SCENARIO",
            description = "Run only these: ${COMPLETION-CANDIDATES} (default: all).")
    List<Chaos.Scenario> only;

    @Override
    public Integer call() throws Exception {
        Path work = Files.createTempDirectory("raglog-chaos-");
        List<Chaos.Scenario> scenarios = only == null || only.isEmpty() ? List.of(Chaos.Scenario.values()) : only;
        try {
            List<ChaosReport> reports = Chaos.run(new Chaos.Settings(runs, seed, Duration.ofSeconds(seconds), losses,
                    spoiled, scenarios), work, System.out);
            System.out.println();
            System.out.printf("%-45s %6s %8s %9s %5s %10s %7s%n", "scenario", "runs", "injected", "failovers", "lost",
                    "duplicated", "time");
            for (ChaosReport r : reports) {
                System.out.printf("%-45s %6d %8d %9d %5d %10d %6.0fs%n", r.scenario(), r.runs(), r.faultsInjected(),
                        r.failovers(), r.lost(), r.duplicated(), r.took().toMillis() / 1000.0);
            }
            boolean exact = reports.stream().allMatch(ChaosReport::exact);
            System.out.println(exact ? "every output exact: nothing lost, nothing repeated"
                    : "SOME OUTPUT WAS NOT EXACT: see the figures above");
            return exact ? 0 : 1;
        } finally {
            deleteQuietly(work);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is not worth failing the drill for
        }
    }
}

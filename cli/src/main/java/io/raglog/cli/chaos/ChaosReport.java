package io.raglog.cli.chaos;

import java.time.Duration;
import java.util.List;

/**
 * The figures of one scenario: how many runs went in, what was done to the job while they went through, and what came
 * out of each output compared with what should have.
 *
 * @param faultsInjected failures caused on purpose (task managers terminated, outages, bad messages, LLM faults)
 * @param failovers restarts the job went through, as its JobManager recorded them
 */
public record ChaosReport(String scenario, int runs, int faultsInjected, String faults, int failovers,
        List<Delivery> deliveries, Duration took, List<String> notes) {

    public int lost() {
        return deliveries.stream().mapToInt(Delivery::lost).sum();
    }

    public int duplicated() {
        return deliveries.stream().mapToInt(Delivery::duplicated).sum();
    }

    public boolean exact() {
        return deliveries.stream().allMatch(Delivery::exact);
    }

    public Delivery delivery(String output) {
        return deliveries.stream().filter(d -> d.output().equals(output)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no output " + output + " in " + scenario));
    }

    public String describe() {
        StringBuilder s = new StringBuilder(String.format("%s: %d runs, %d faults injected (%s), %d failovers, "
                + "%d lost, %d duplicated, %.0f s%n", scenario, runs, faultsInjected, faults, failovers, lost(),
                duplicated(), took.toMillis() / 1000.0));
        deliveries.forEach(d -> s.append("  ").append(d).append('\n'));
        notes.forEach(n -> s.append("  ").append(n).append('\n'));
        return s.toString();
    }
}

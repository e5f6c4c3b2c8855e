package io.raglog.training;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Recall by the kind of a run's root fault ({@code Label.faultType}, e.g. {@code assemble.evidence_buried}): of the
 * runs whose fault started as that kind, the share where raglog flagged the stage it started in. Pooled stage F1 hides
 * a kind that is never caught behind the kinds that always are; this is where it shows.
 *
 * @param origin injected or natural (a kind that arises both ways is counted under each)
 * @param runs runs whose root fault is this kind and whose fault stage was scored
 * @param caught those runs with the fault's stage flagged
 */
public record FaultKindRecall(String faultType, String origin, int runs, int caught) {

    public double recall() {
        return runs == 0 ? 0.0 : (double) caught / runs;
    }

    /** Counts runs by the kind and origin of their root fault. */
    static final class Tally {

        private final Map<String, int[]> counts = new TreeMap<>();

        void add(Label label, Set<Stage> scored, Set<Stage> flagged) {
            if (label.faultType() == null || label.faultStage() == null) {
                return;
            }
            Stage stage = Stage.of(label.faultStage());
            if (!scored.contains(stage)) {
                return; // not scored (absent, or a bundle that does not score it): no verdict to count
            }
            String origin = label.origin() == null ? "unknown" : label.origin();
            int[] c = counts.computeIfAbsent(label.faultType() + " " + origin, k -> new int[2]);
            c[0]++;
            c[1] += flagged.contains(stage) ? 1 : 0;
        }

        Map<String, FaultKindRecall> report() {
            Map<String, FaultKindRecall> out = new TreeMap<>();
            counts.forEach((key, c) -> {
                String[] parts = key.split(" ", 2);
                out.put(key.replace(' ', '/'), new FaultKindRecall(parts[0], parts[1], c[0], c[1]));
            });
            return out;
        }
    }
}

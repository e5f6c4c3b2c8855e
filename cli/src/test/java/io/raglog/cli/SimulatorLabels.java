package io.raglog.cli;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the simulator's ground truth the way the tests compare runs with it. */
final class SimulatorLabels {

    private SimulatorLabels() {}

    /** The stages each profile has: those labeled (0 or 1) in any of its runs. */
    static Map<String, Set<Stage>> stagesByProfile(List<Label> labels) {
        Map<String, Set<Stage>> stages = new HashMap<>();
        for (Label label : labels) {
            Set<Stage> set = stages.computeIfAbsent(label.profile(), p -> EnumSet.noneOf(Stage.class));
            for (Stage s : Stage.values()) {
                if (label.stages().get(s) != null) {
                    set.add(s);
                }
            }
        }
        return stages;
    }
}

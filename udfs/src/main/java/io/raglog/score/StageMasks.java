package io.raglog.score;

import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Set;

/**
 * Stages as bits of an int, by ordinal: how the decision rules ({@link ContextAssemblyRule#applyToMask},
 * {@link AnswerKindRule#applyToMask}, {@link SureSignsRule#applyToMask}) are written once for the job and for
 * the tier gate's search, which runs them millions of times.
 */
public final class StageMasks {

    private StageMasks() {}

    public static int of(Iterable<Stage> stages) {
        int out = 0;
        for (Stage stage : stages) {
            out |= 1 << stage.ordinal();
        }
        return out;
    }

    public static Set<Stage> stages(int mask) {
        Set<Stage> out = EnumSet.noneOf(Stage.class);
        for (Stage stage : Stage.values()) {
            if ((mask & 1 << stage.ordinal()) != 0) {
                out.add(stage);
            }
        }
        return out;
    }
}

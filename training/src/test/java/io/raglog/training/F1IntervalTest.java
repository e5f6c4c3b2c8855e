package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.LabelStages;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bootstrap interval of pooled stage F1 holds the sample's own F1 and narrows as the sample grows. */
class F1IntervalTest {

    /** Runs of one retrieval stage each: a caught fault, a missed fault, a false flag, a quiet sound stage, in turn. */
    private static List<RunOutcome> runs(int n) {
        List<RunOutcome> out = new ArrayList<>();
        Set<Stage> scored = EnumSet.of(Stage.RETRIEVE);
        LabelStages faulty = new LabelStages(null, null, 1, null, null);
        LabelStages sound = new LabelStages(null, null, 0, null, null);
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0 -> out.add(new RunOutcome("r" + i, scored, scored, faulty, false));
                case 1 -> out.add(new RunOutcome("r" + i, scored, Set.of(), faulty, false));
                case 2 -> out.add(new RunOutcome("r" + i, scored, scored, sound, true));
                default -> out.add(new RunOutcome("r" + i, scored, Set.of(), sound, true));
            }
        }
        return out;
    }

    @Test
    void shouldHoldTheSamplesOwnF1AndNarrowAsTheSampleGrows() {
        // one of every two faults caught, and one false flag for each caught: F1 0.5
        double f1 = MethodReport.of("raglog", "", runs(400)).pooled().f1();

        F1Interval small = F1Interval.of(runs(100));
        F1Interval large = F1Interval.of(runs(4000));

        assertThat(f1).isEqualTo(0.5);
        assertThat(small.low()).isLessThan(f1);
        assertThat(small.high()).isGreaterThan(f1);
        assertThat(large.low()).isLessThan(f1).isGreaterThan(small.low());
        assertThat(large.high()).isGreaterThan(f1).isLessThan(small.high());
        assertThat(large.high() - large.low()).isLessThan((small.high() - small.low()) / 4);
        assertThat(F1Interval.of(runs(100))).isEqualTo(small); // seeded: a report is a function of its inputs
        assertThat(F1Interval.of(List.of())).isNull();
    }
}

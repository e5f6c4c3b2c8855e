package io.raglog.monitor;

import org.apache.flink.api.common.functions.AggregateFunction;

/** Counts a window's stage outcomes incrementally: three longs of state per pipeline × stage × window. */
public class FaultRateCounts implements AggregateFunction<StageOutcome, long[], long[]> {

    private static final long serialVersionUID = 1L;

    @Override
    public long[] createAccumulator() {
        return new long[3]; // seen, checked, flagged
    }

    @Override
    public long[] add(StageOutcome outcome, long[] acc) {
        acc[0]++;
        if (outcome.checked()) {
            acc[1]++;
            if (outcome.flagged()) {
                acc[2]++;
            }
        }
        return acc;
    }

    @Override
    public long[] getResult(long[] acc) {
        return acc;
    }

    @Override
    public long[] merge(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }
}

package io.raglog.monitor;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Run;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Sampled runs go on to the checks; the others to a side output, so they still count in the fault rates. Incomplete
 * runs go on to neither: they have no answer to check and are no complete question to count in a stage's fault rate
 * (an orphan embedding call would count as an embed stage seen); they are in {@code raglog.runs}, and counted here.
 */
public class SampleRunsFunction extends ProcessFunction<Run, Run> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<Run> NOT_SAMPLED = new OutputTag<>("not-sampled", JacksonTypeInfo.of(Run.class));

    private final SamplingPolicy policy;
    private transient Counter sampled;
    private transient Counter skipped;
    private transient Counter incomplete;

    public SampleRunsFunction(SamplingPolicy policy) {
        this.policy = policy;
    }

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("sampling");
        sampled = group.counter("runs_sampled");
        skipped = group.counter("runs_not_sampled");
        incomplete = group.counter("runs_incomplete_not_checked");
    }

    @Override
    public void processElement(Run run, Context ctx, Collector<Run> out) {
        if (run.incomplete()) {
            incomplete.inc();
        } else if (policy.sampled(run)) {
            sampled.inc();
            out.collect(run);
        } else {
            skipped.inc();
            ctx.output(NOT_SAMPLED, run);
        }
    }
}

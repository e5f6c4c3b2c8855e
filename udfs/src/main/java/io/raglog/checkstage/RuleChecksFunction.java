package io.raglog.checkstage;

import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.schemas.Run;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule checks of each run, on the task thread: lexical work of a millisecond or two. The vector checks come after,
 * in the async checks operator, beside the LLM calls ({@link VectorStep}).
 */
public final class RuleChecksFunction extends RichMapFunction<Run, CheckedRun> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RuleChecksFunction.class);

    private transient CheapChecks rules;
    private transient Counter failures;

    @Override
    public void open(OpenContext openContext) {
        rules = CheapChecks.rulesOnly();
        failures = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("checks")
                .counter("cheap_check_failures");
    }

    @Override
    public CheckedRun map(Run run) {
        try {
            return rules.apply(run);
        } catch (RuntimeException e) {
            // A run the checks choke on still goes on, with its rule features missing: never a lost run.
            failures.inc();
            LOG.warn("rule checks failed on run {}; its rule features are missing", run.runId(), e);
            return new CheckedRun(run, Map.of(), List.of());
        }
    }
}

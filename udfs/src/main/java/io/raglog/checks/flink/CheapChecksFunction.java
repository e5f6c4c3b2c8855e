package io.raglog.checks.flink;

import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.checks.ChecksSettings;
import io.raglog.checks.SharedEmbedder;
import io.raglog.schemas.Run;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Rules and vectors for each run. The embedding model loads here, in {@code open}, once per JVM (shared by slots). */
public final class CheapChecksFunction extends RichMapFunction<Run, CheckedRun> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CheapChecksFunction.class);

    private final ChecksSettings settings;
    private transient CheapChecks checks;
    private transient Counter failures;

    public CheapChecksFunction(ChecksSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        // with vector checks off the model is never loaded: nothing to acquire, nothing to release
        checks = settings.vectorChecks() ? new CheapChecks(SharedEmbedder.acquire(settings.embeddingCacheEntries()))
                : CheapChecks.rulesOnly();
        failures = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("checks")
                .counter("cheap_check_failures");
    }

    @Override
    public CheckedRun map(Run run) {
        try {
            return checks.apply(run);
        } catch (RuntimeException e) {
            // A run the checks choke on still goes on, with its cheap features missing: never a lost run.
            failures.inc();
            LOG.warn("cheap checks failed on run {}; its rule and vector features are missing", run.runId(), e);
            return new CheckedRun(run, Map.of(), List.of());
        }
    }

    @Override
    public void close() {
        if (checks != null) {
            checks = null;
            if (settings.vectorChecks()) {
                SharedEmbedder.release();
            }
        }
    }
}

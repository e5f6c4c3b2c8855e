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

/**
 * The rule checks of each run, and its vector checks too when they must come before the LLM operator (tiered mode:
 * the tier gate reads them). Otherwise the vectors run in the LLM operator, beside the LLM calls ({@link VectorStep}).
 * With vectors here the embedding model loads in {@code open}, once per JVM (shared by slots).
 */
public final class CheapChecksFunction extends RichMapFunction<Run, CheckedRun> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CheapChecksFunction.class);

    private final ChecksSettings settings;
    private final boolean vectors;
    private transient CheapChecks checks;
    private transient Counter failures;

    /** @param vectors also the vector checks (when the settings have them on); false: the rules only */
    public CheapChecksFunction(ChecksSettings settings, boolean vectors) {
        this.settings = settings;
        this.vectors = vectors && settings.vectorChecks();
    }

    @Override
    public void open(OpenContext openContext) {
        // with vector checks off the model is never loaded: nothing to acquire, nothing to release
        checks = vectors ? new CheapChecks(SharedEmbedder.acquire(settings.embeddingCacheEntries()))
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
            if (vectors) {
                SharedEmbedder.release();
            }
        }
    }
}

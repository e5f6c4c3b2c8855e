package io.raglog.score.flink;

import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.DecodeCallsFunction;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.Json;
import io.raglog.schemas.PipelineThresholds;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * raglog.thresholds/v1 bytes in, threshold overrides out; anything else to the dead-letter side output with its
 * reason, like every other bad input: a broken override must neither stop the job nor pass unseen.
 */
public class DecodeThresholdsFunction extends ProcessFunction<RawMessage, PipelineThresholds> {

    private static final long serialVersionUID = 1L;

    private transient Counter decoded;
    private transient Counter rejected;

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("score");
        decoded = group.counter("threshold_overrides_decoded");
        rejected = group.counter("threshold_overrides_dead_lettered");
    }

    @Override
    public void processElement(RawMessage message, Context ctx, Collector<PipelineThresholds> out) {
        String reason = null;
        PipelineThresholds override = null;
        if (message.payload() == null || message.payload().length == 0) {
            reason = "empty " + PipelineThresholds.SCHEMA_V1 + " record";
        } else {
            try {
                override = Json.MAPPER.readValue(message.payload(), PipelineThresholds.class);
            } catch (Exception e) {
                reason = "not a " + PipelineThresholds.SCHEMA_V1 + " record: " + rootMessage(e);
            }
        }
        if (override != null) {
            decoded.inc();
            out.collect(override);
        } else {
            rejected.inc();
            ctx.output(DecodeCallsFunction.DEAD_LETTERS, DeadLetters.of(message, reason));
        }
    }

    /** The record's own complaint (e.g. "version must be 1 or more"), not Jackson's wrapping of it. */
    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message.lines().findFirst().orElse(message);
    }
}

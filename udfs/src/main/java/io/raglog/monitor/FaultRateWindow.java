package io.raglog.monitor;

import io.raglog.schemas.FaultRate;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Turns a window's counts into a {@link FaultRate}, and keeps the latest rate of each pipeline × stage as a Flink
 * gauge ({@code raglog.fault_rate.<pipeline>.<stage>}) so Prometheus sees it without reading Kafka.
 */
public class FaultRateWindow extends ProcessWindowFunction<long[], FaultRate, String, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private transient MetricGroup group;
    private transient Map<String, Double> latest;

    @Override
    public void open(OpenContext openContext) {
        group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("fault_rate");
        latest = new HashMap<>();
    }

    @Override
    public void process(String key, Context ctx, Iterable<long[]> counts, Collector<FaultRate> out) {
        long[] c = counts.iterator().next();
        int split = key.indexOf('\u001f');
        String pipeline = key.substring(0, split);
        String stage = key.substring(split + 1);
        Double rate = c[1] == 0 ? null : c[2] / (double) c[1];
        // only the series v4 added are written as v4: a v3 reader keeps reading every series it knows
        out.collect(new FaultRate(FaultRate.schemaOf(stage), pipeline, stage,
                Instant.ofEpochMilli(ctx.window().getStart()),
                Instant.ofEpochMilli(ctx.window().getEnd()), c[0], c[1], c[2], rate));
        if (rate != null) {
            if (!latest.containsKey(key)) {
                group.addGroup("pipeline", pipeline).addGroup("stage", stage)
                        .gauge("rate", (Gauge<Double>) () -> latest.get(key));
            }
            latest.put(key, rate);
        }
    }
}

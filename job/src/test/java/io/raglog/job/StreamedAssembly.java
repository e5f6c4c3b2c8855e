package io.raglog.job;

import io.raglog.assemble.AssembleRunsFunction;
import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;

/**
 * Run assembly fed classified calls as the job's stream would feed them: in the order given, each at its end as event
 * time, the watermark trailing the newest by the job's max out-of-order delay, then the input's end.
 *
 * @param runs what assembly emitted, in order
 * @param keyedStateEntries what it kept in keyed state once the input ended (a pipeline's learned wait, say)
 * @param eventTimeTimers the event-time timers left
 */
record StreamedAssembly(List<Run> runs, int keyedStateEntries, int eventTimeTimers) {

    private static final long OUT_OF_ORDER_MS = TopologySettings.DEFAULTS.maxOutOfOrder().toMillis();

    /** {@code calls} assembled in event time only (as a replay, not the prompt path). */
    static StreamedAssembly of(List<ClassifiedCall> calls) throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS.eventTimeOnly()), ClassifiedCall::runKey,
                Types.STRING)) {
            for (ClassifiedCall c : calls) {
                long end = c.event().endedAt().toEpochMilli();
                h.processElement(c, end);
                h.processWatermark(end - OUT_OF_ORDER_MS);
            }
            h.processWatermark(Long.MAX_VALUE);
            return new StreamedAssembly(List.copyOf(h.extractOutputValues()), h.numKeyedStateEntries(),
                    h.numEventTimeTimers());
        }
    }
}

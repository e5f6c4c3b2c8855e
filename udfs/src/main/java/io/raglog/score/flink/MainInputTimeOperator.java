package io.raglog.score.flink;

import java.util.List;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * A broadcast operator whose event time is its main input's alone: the broadcast input (control records such as
 * threshold overrides) is idle for event time from the start and its watermarks and status are not read. Flink
 * takes an operator's watermark as the least of its active inputs', so a control topic that is empty, or missing, or
 * quiet for hours would hold the main input's time back (and the windows after it would never close); and one that
 * declared the end of time would push it forward while the main input is idle, making every later record late.
 * Neither may happen: control records change state, never time.
 */
public final class MainInputTimeOperator<IN, CONTROL, OUT> extends CoBroadcastWithNonKeyedOperator<IN, CONTROL, OUT> {

    private static final long serialVersionUID = 1L;

    /** The control input's index for the watermark bookkeeping of a two-input operator. */
    private static final int CONTROL_INPUT = 1;

    public MainInputTimeOperator(BroadcastProcessFunction<IN, CONTROL, OUT> function,
            List<MapStateDescriptor<?, ?>> broadcastStates) {
        super(function, broadcastStates);
    }

    @Override
    public void open() throws Exception {
        super.open();
        super.processWatermarkStatus(WatermarkStatus.IDLE, CONTROL_INPUT);
    }

    @Override
    public void processWatermark2(Watermark mark) {
        // the control input's time is not the operator's
    }

    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int inputIndex) throws Exception {
        if (inputIndex != CONTROL_INPUT) {
            super.processWatermarkStatus(status, inputIndex);
        }
    }
}

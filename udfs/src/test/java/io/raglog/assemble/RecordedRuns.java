package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;

/**
 * Assembly of a vendor's recorded calls (test resources under {@code /wire/{vendor}}) sent without their run hints,
 * as content alone must link them: one harness a test, closed with it.
 */
final class RecordedRuns implements AutoCloseable {

    private final String vendor;
    private final KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness;

    RecordedRuns(String vendor) throws Exception {
        this.vendor = vendor;
        this.harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS), ClassifiedCall::runKey, Types.STRING);
    }

    /** The recorded calls sent without their run hint, in order; the one run they make, state and timers cleared. */
    Run theOneRunOf(String... files) throws Exception {
        for (String file : files) {
            ClassifiedCall call = unhinted(file);
            harness.processElement(call, call.event().endedAt().toEpochMilli());
        }
        harness.processWatermark(Long.MAX_VALUE - 1);
        List<Run> runs = harness.extractOutputValues();
        assertThat(runs).hasSize(1);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        return runs.get(0);
    }

    private ClassifiedCall unhinted(String file) throws IOException {
        CallEvent recorded;
        try (InputStream in = RecordedRuns.class.getResourceAsStream("/wire/" + vendor + "/" + file + ".json")) {
            recorded = Json.MAPPER.readValue(in, CallEvent.class);
        }
        CallEvent call = new CallEvent(recorded.schema(), recorded.eventId(), recorded.pipeline(), null,
                recorded.startedAt(), recorded.endedAt(), recorded.request(), recorded.response(), recorded.source());
        Classification c = BuiltInAdapters.classifier().classify(call);
        assertThat(c).as(file).isInstanceOf(Classification.Classified.class);
        return ((Classification.Classified) c).call();
    }

    @Override
    public void close() throws Exception {
        harness.close();
    }
}

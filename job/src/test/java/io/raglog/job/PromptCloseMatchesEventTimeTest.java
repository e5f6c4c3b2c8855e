package io.raglog.job;

import io.raglog.assemble.AssembleRunsFunction;
import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * Simulated traffic of every proxy profile, arriving live in the order its calls end (as the proxy writes them): the
 * runs closed a short wait after their generator call arrived are the runs the watermark closes seconds later.
 */
class PromptCloseMatchesEventTimeTest {

    private static final long OUT_OF_ORDER_MS = TopologySettings.DEFAULTS.maxOutOfOrder().toMillis();

    @Test
    void shouldAssembleTheSameRunsOnGeneratorArrivalAsOnEventTime() throws Exception {
        List<ClassifiedCall> calls = simulatedCalls(150, 9);

        List<Run> byEventTime;
        try (var h = harness(AssemblySettings.DEFAULTS.eventTimeOnly())) {
            for (ClassifiedCall c : calls) {
                long end = c.event().endedAt().toEpochMilli();
                h.setProcessingTime(end);
                h.processElement(c, end);
                h.processWatermark(end - OUT_OF_ORDER_MS);
            }
            h.processWatermark(Long.MAX_VALUE);
            byEventTime = sorted(h.extractOutputValues());
        }

        List<Run> prompt;
        int closedBeforeTheEnd;
        try (var h = harness(AssemblySettings.DEFAULTS)) {
            for (ClassifiedCall c : calls) {
                long end = c.event().endedAt().toEpochMilli();
                h.setProcessingTime(end); // live: each call arrives as it ends
                h.processElement(c, end);
                // no watermark yet: every run closed before the end of the input closed on its generator's arrival
            }
            h.setProcessingTime(h.getProcessingTime() + AssemblySettings.DEFAULTS.generatorWait().toMillis());
            closedBeforeTheEnd = h.extractOutputValues().size();
            h.processWatermark(Long.MAX_VALUE);
            prompt = sorted(h.extractOutputValues());
        }

        assertThat(byEventTime).hasSizeGreaterThan(100);
        assertThat(prompt).isEqualTo(byEventTime);
        long complete = byEventTime.stream().filter(r -> !r.incomplete()).count();
        assertThat(closedBeforeTheEnd).as("runs closed on their generator's arrival").isEqualTo((int) complete);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness(AssemblySettings s)
            throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedProcessFunction(new AssembleRunsFunction(s),
                ClassifiedCall::runKey, Types.STRING);
    }

    private static List<Run> sorted(List<Run> runs) {
        return runs.stream().sorted(Comparator.comparing(Run::runId)).toList();
    }

    /** The proxy-captured calls of the simulated runs, classified, in the order they end. */
    private static List<ClassifiedCall> simulatedCalls(int runs, long seed) {
        MemorySink simulated = new MemorySink();
        new Simulator(SimulatorOptions.of("all", runs, seed)).run(simulated);
        List<CallEvent> events = simulated.calls();
        CallClassifier classifier = BuiltInAdapters.classifier();
        List<ClassifiedCall> out = new ArrayList<>();
        for (CallEvent e : events) {
            if (classifier.classify(e) instanceof Classification.Classified c && c.call().stage() != null
                    && !(c.call().detail() instanceof NotARunCall)) {
                out.add(c.call().forAssembly());
            }
        }
        out.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt())
                .thenComparing(c -> c.event().eventId()));
        return out;
    }
}

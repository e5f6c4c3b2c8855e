package io.raglog.job;

import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpJsonDecoder;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator's calls for tests that hold new code to old: every call of two samples, or the proxy-captured calls
 * classified and linked into runs, per run key, in the order they were written.
 */
public final class SimulatedRuns {

    private SimulatedRuns() {}

    /** Every call of two simulated samples of every profile, proxy-captured and OTLP alike. */
    public static List<CallEvent> calls() {
        List<CallEvent> calls = new ArrayList<>();
        for (SimulatorOptions options : List.of(SimulatorOptions.of("all", 150, 7), SimulatorOptions.of("all", 60, 11))) {
            MemorySink sink = new MemorySink();
            new Simulator(options).run(sink);
            calls.addAll(sink.calls());
            for (ObjectNode traces : sink.traces()) {
                calls.addAll(new OtlpJsonDecoder().decode(Json.writeBytes(traces)).calls());
            }
        }
        return calls;
    }

    public static List<Run> linked(SimulatorOptions options) {
        MemorySink sink = new MemorySink();
        new Simulator(options).run(sink);
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
        for (CallEvent call : sink.calls()) {
            if (classifier.classify(call) instanceof Classification.Classified c && c.call().stage() != null) {
                byKey.computeIfAbsent(c.call().runKey(), k -> new ArrayList<>()).add(c.call().forAssembly());
            }
        }
        List<Run> runs = new ArrayList<>();
        for (List<ClassifiedCall> pending : byKey.values()) {
            CallEvent first = pending.get(0).event();
            for (RunLinker.Assembled a : RunLinker.link(first.pipeline(), first.runHint(), pending,
                    Long.MAX_VALUE / 4, AssemblySettings.DEFAULTS)) {
                runs.add(a.run());
            }
        }
        return runs;
    }
}

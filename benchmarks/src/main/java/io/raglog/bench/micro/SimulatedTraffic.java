package io.raglog.bench.micro;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.SimulationSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Realistic inputs for the micro-benchmarks, made in memory by the simulator: the proxy-captured calls as the wire
 * bytes the job decodes, and the runs they assemble into, each with the calls it was linked from.
 */
public final class SimulatedTraffic {

    /**
     * One assembled run and the classified calls it was built from.
     *
     * @param calls as the classify task hands them to the assembly ({@link ClassifiedCall#forAssembly()})
     * @param classified the same calls as the classifier made them, before the hand-over
     */
    public record LinkedRun(Run run, List<ClassifiedCall> calls, List<ClassifiedCall> classified) {}

    private final List<byte[]> payloads = new ArrayList<>();
    private final List<LinkedRun> runs = new ArrayList<>();
    private final List<ClassifiedCall> assemblyInput = new ArrayList<>();

    private SimulatedTraffic() {}

    public static SimulatedTraffic generate(int runCount, long seed) {
        SimulatedTraffic traffic = new SimulatedTraffic();
        List<CallEvent> calls = new ArrayList<>();
        new Simulator(SimulatorOptions.of("all", runCount, seed)).run(new SimulationSink() {
            @Override
            public void call(CallEvent call) {
                calls.add(call);
            }

            @Override
            public void traces(ObjectNode request) {
                // the OTLP profile's runs are not part of these inputs: the proxy-captured calls are the common case
            }

            @Override
            public void label(Label label) {}

            @Override
            public void close() {}
        });
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
        Map<String, ClassifiedCall> byEventId = new LinkedHashMap<>();
        Map<String, ClassifiedCall> classifiedByEventId = new LinkedHashMap<>();
        for (CallEvent call : calls) {
            traffic.payloads.add(Json.writeBytes(call));
            // as the job's classify step: a call that is not part of a run (stage null) never reaches assembly
            if (classifier.classify(call) instanceof Classification.Classified c && c.call().stage() != null) {
                ClassifiedCall held = c.call().forAssembly();
                byKey.computeIfAbsent(held.runKey(), k -> new ArrayList<>()).add(held);
                byEventId.put(call.eventId(), held);
                classifiedByEventId.put(call.eventId(), c.call());
                traffic.assemblyInput.add(held);
            }
        }
        for (List<ClassifiedCall> pending : byKey.values()) {
            CallEvent first = pending.get(0).event();
            // "now" far past every call: every run closes, as at the end of a bounded input
            for (RunLinker.Assembled a : RunLinker.link(first.pipeline(), first.runHint(), pending,
                    Long.MAX_VALUE / 4, AssemblySettings.DEFAULTS)) {
                if (!a.run().incomplete()) {
                    List<ClassifiedCall> members = a.consumedEventIds().stream().map(byEventId::get).toList();
                    traffic.runs.add(new LinkedRun(a.run(), members,
                            a.consumedEventIds().stream().map(classifiedByEventId::get).toList()));
                }
            }
        }
        return traffic;
    }

    public List<byte[]> payloads() {
        return payloads;
    }

    public List<LinkedRun> runs() {
        return runs;
    }

    /** The calls that reach the assembly, as held there, in the order the simulator logged them. */
    public List<ClassifiedCall> assemblyInput() {
        return assemblyInput;
    }
}

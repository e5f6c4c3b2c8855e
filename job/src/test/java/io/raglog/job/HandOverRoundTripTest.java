package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.flink.JacksonSerializer;
import io.raglog.ingest.DeadLetters;
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
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * Every record the job hands between its tasks comes back as it was written, on simulated traffic of every profile:
 * the calls the classify task hands the assembly (a hinted one with its bodies, which a late one is dead-lettered
 * with), and the runs the assembly hands on (passage texts written once a
 * record, {@code SharedPassageTexts}).
 */
class HandOverRoundTripTest {

    private static final SmileMapper PLAIN_SMILE = Json.configure(SmileMapper.builder());

    @Test
    void shouldHandEverySimulatedCallAndRunOnUnchanged() throws Exception {
        MemorySink sink = new MemorySink();
        new Simulator(SimulatorOptions.of("all", 300, 13)).run(sink);
        CallClassifier classifier = BuiltInAdapters.classifier();
        JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        JacksonSerializer<Run> runs = new JacksonSerializer<>(Run.class);
        DataOutputSerializer out = new DataOutputSerializer(64 * 1024);
        Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
        int hinted = 0;
        for (CallEvent call : sink.calls()) {
            if (classifier.classify(call) instanceof Classification.Classified c && c.call().stage() != null) {
                ClassifiedCall handed = c.call().forAssembly();
                ClassifiedCall back = roundTrip(calls, handed, out);
                assertThat(Json.write(back)).isEqualTo(Json.write(handed));
                assertThat(back.requestDigest()).isEqualTo(c.call().requestDigest());
                if (call.hasRunHint()) {
                    // were it late, its dead letter would hold the call as captured, bodies and all
                    // (compared as JSON: a number's node class may differ after the crossing, as it did before)
                    assertThat(Json.write(back.wholeEvent())).isEqualTo(Json.write(call));
                    assertThat(RaglogPipeline.lateCall(back).payload())
                            .isEqualTo(DeadLetters.ofCall("assembly", call, "late").payload());
                    hinted++;
                }
                byKey.computeIfAbsent(back.runKey(), k -> new ArrayList<>()).add(back);
            }
        }
        assertThat(hinted).as("hinted calls").isGreaterThan(100);
        long handedOn = 0;
        long plain = 0;
        int checked = 0;
        for (List<ClassifiedCall> pending : byKey.values()) {
            CallEvent first = pending.get(0).event();
            for (RunLinker.Assembled a : RunLinker.link(first.pipeline(), first.runHint(), pending,
                    Long.MAX_VALUE / 4, AssemblySettings.DEFAULTS)) {
                Run back = roundTrip(runs, a.run(), out);
                assertThat(Json.write(back)).as(a.run().runId()).isEqualTo(Json.write(a.run()));
                handedOn += out.length();
                plain += PLAIN_SMILE.writeValueAsBytes(a.run()).length;
                checked++;
            }
        }
        assertThat(checked).as("runs assembled").isGreaterThan(200);
        // what writing each text once is for: a run carries most passages three or four times (about half on this sample)
        assertThat((double) handedOn / plain).as("hand-over bytes against plain Smile").isLessThan(0.65);
    }

    private static <T> T roundTrip(JacksonSerializer<T> serializer, T record, DataOutputSerializer out)
            throws Exception {
        out.clear();
        serializer.serialize(record, out);
        return serializer.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
    }
}

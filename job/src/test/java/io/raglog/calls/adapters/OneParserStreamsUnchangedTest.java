package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpJsonDecoder;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Holds the streamed replies read with one parser a stream ({@link LaidChunks}, issue #27) to what a parser a chunk
 * made of them: every call of two simulated samples of every profile, proxy-captured and OTLP alike, is classified
 * both ways, and the classifications (each call's decoded detail, or the refusal) must be equal.
 */
class OneParserStreamsUnchangedTest {

    @Test
    void shouldDecodeEverySimulatedStreamAsAParserAChunkDid() throws AdapterException {
        CallClassifier classifier = BuiltInAdapters.classifier();
        int streams = 0;
        int laidOut = 0;
        int classified = 0;
        for (CallEvent call : simulatedCalls()) {
            JsonNode reply = Bodies.response(call);
            if (!Sse.isStream(reply)) {
                continue;
            }
            streams++;
            laidOut += laidOut(reply.textValue()) ? 1 : 0;
            Classification oneParser = classifier.classify(call);
            Classification parserAChunk;
            LaidChunks.enableOnThisThread(false);
            try {
                parserAChunk = classifier.classify(call);
            } finally {
                LaidChunks.enableOnThisThread(true);
            }
            assertThat(oneParser).as(reply.textValue()).isEqualTo(parserAChunk);
            classified += oneParser instanceof Classification.Classified ? 1 : 0;
        }
        assertThat(streams).isGreaterThan(100);
        assertThat(classified).isEqualTo(streams);
        // the simulated streams are well-formed and short enough: all of them take the one parser
        assertThat(laidOut).isEqualTo(streams);
    }

    private static boolean laidOut(String raw) throws AdapterException {
        LaidChunks laid = LaidChunks.take();
        try {
            return laid.layOut(raw);
        } finally {
            laid.release();
        }
    }

    private static List<CallEvent> simulatedCalls() {
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
}

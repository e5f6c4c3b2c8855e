package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpDecoder;
import io.raglog.calls.otlp.OtlpDecoding;
import io.raglog.calls.otlp.SpanFilter;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Holds what raglog reads from the simulator's OpenTelemetry traces bit for bit, as {@link SimulatedRunsGoldenTest}
 * holds the proxy calls' runs: each OTLP/JSON message of a fixed sample decoded into its calls, each call classified,
 * every call and classification written as JSON and digested. The digest was written from the code before the OTLP
 * decoder's speed work (issue #27: its trees held compactly, locations built only on error, attributes read in place),
 * and written again on 2026-12-05 from the decoder as it stood, when the simulator's prompts changed (a run's context
 * gets the room the rest of its prompt leaves), and again when a planted meaning change came to replace only the
 * question's own words, and again when a wrong answer came to be said in the model's style (a whole sentence as
 * often as a right one), and again when planted off-topic retrieval came to return the passages nearest the query
 * in a store of other subjects rather than passages picked at random: each time the sample changed, not the
 * reading. A change meant to change what traces read as must say so and write the new digest.
 */
class SimulatedTracesGoldenTest {

    private static final String GOLDEN = "7e39cf44a810657f9cd3cc54960e424bd4d8a090b854672942a3b061a59cb828";

    @Test
    void shouldReadTheSimulatedTracesAsBefore() throws Exception {
        MemorySink sink = new MemorySink();
        new Simulator(SimulatorOptions.of("all", 400, 23)).run(sink);
        List<byte[]> messages = sink.traces().stream().map(Json::writeBytes).toList();
        assertThat(messages).hasSizeGreaterThan(10);

        OtlpDecoder decoder = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_JSON, SpanFilter.stagesOnly());
        CallClassifier classifier = BuiltInAdapters.classifier();
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        int calls = 0;
        for (byte[] message : messages) {
            OtlpDecoding decoded = decoder.decode(message);
            assertThat(decoded.failed()).as(decoded.error()).isFalse();
            digest.update((decoded.spans() + "/" + decoded.droppedNotStage() + "\n").getBytes(StandardCharsets.UTF_8));
            for (CallEvent call : decoded.calls()) {
                digest.update(Json.writeBytes(call));
                Classification classification = classifier.classify(call);
                digest.update(classification instanceof Classification.Classified c
                        ? Json.writeBytes(c.call()) : classification.toString().getBytes(StandardCharsets.UTF_8));
                calls++;
            }
        }
        assertThat(calls).isGreaterThan(100);
        assertThat(HexFormat.of().formatHex(digest.digest())).isEqualTo(GOLDEN);
    }
}

package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.job.SimulatedRuns;
import io.raglog.schemas.CallEvent;
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
        for (CallEvent call : SimulatedRuns.calls()) {
            JsonNode reply = Bodies.response(call);
            if (!Sse.isStream(reply)) {
                continue;
            }
            streams++;
            laidOut += LaidChunks.laysOut(reply.textValue()) ? 1 : 0;
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
}

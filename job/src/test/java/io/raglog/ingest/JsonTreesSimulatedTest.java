package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonTrees#read} over the simulator's traffic, every profile, as the job's decode task reads it: the same tree
 * as {@code readTree} ({@link JsonTreesTest#assertSameAsReadTree}), and the decoded call classified the
 * same (the same classification, written out, as for the call with {@code readTree}'s bodies).
 */
class JsonTreesSimulatedTest {

    @Test
    void shouldReadAndClassifyEverySimulatedCallAsWithReadTree() throws IOException {
        CallClassifier classifier = BuiltInAdapters.classifier();
        int calls = 0;
        int withVectors = 0;
        for (SimulatorOptions options : List.of(SimulatorOptions.of("all", 150, 7), SimulatorOptions.of("all", 60, 11))) {
            MemorySink sink = new MemorySink();
            new Simulator(options).run(sink);
            for (CallEvent call : sink.calls()) {
                byte[] bytes = Json.writeBytes(call);
                JsonNode expected = Json.MAPPER.readTree(bytes);
                String what = call.eventId() + " " + call.request().url();
                // equal both ways, same hash, same JSON and Smile bytes, same node classes and field order
                withVectors += JsonTreesTest.assertSameAsReadTree(bytes) ? 1 : 0;

                CallEvent decoded = CallEventDecoder.decode(bytes).event();
                assertThat(decoded).as(what).isNotNull();
                CallEvent withReadTreeBodies = new CallEvent(decoded.schema(), decoded.eventId(), decoded.pipeline(),
                        decoded.runHint(), decoded.startedAt(), decoded.endedAt(),
                        new HttpRequest(decoded.request().method(), decoded.request().url(),
                                decoded.request().headers(), expected.get("request").get("body")),
                        new HttpResponse(decoded.response().status(), decoded.response().headers(),
                                expected.get("response").get("body")),
                        decoded.source(), decoded.session());
                assertThat(decoded).as(what).isEqualTo(withReadTreeBodies);
                assertThat(written(classifier.classify(decoded))).as(what)
                        .isEqualTo(written(classifier.classify(withReadTreeBodies)));
                calls++;
            }
        }
        assertThat(calls).isGreaterThan(700);
        assertThat(withVectors).as("calls with vectors as number arrays").isGreaterThan(calls / 10);
    }

    private static String written(Classification c) {
        return c instanceof Classification.Classified classified ? Json.write(classified.call()) : c.toString();
    }

}

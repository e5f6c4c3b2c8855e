package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.flink.JacksonSerializer;
import io.raglog.ingest.ClassifyCallsFunction;
import io.raglog.ingest.DoubleArrayNode;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A call without a run hint reaches assembly without its bodies (nothing there reads them: it cannot come late), a
 * hinted one with them as bytes, given back whole only if it comes late, and a failed call is still told a retry of
 * another by the digest of what it sent.
 */
class ClassifiedCallForAssemblyTest {

    private static final String EMBED = "https://api.openai.com/v1/embeddings";
    private static final String REQUEST = "{'model':'text-embedding-3-small','input':'when did the normans arrive'}";
    private static final String REPLY = "{'object':'list','model':'text-embedding-3-small',"
            + "'data':[{'object':'embedding','index':0,'embedding':[0.1,0.2,0.3]}]}";

    @Test
    void shouldHandAnUnhintedCallOnWithoutItsBodiesAndAHintedOneWithThemAsBytes() throws Exception {
        CallEvent hinted = Calls.post(EMBED, REQUEST, 200, REPLY);
        CallEvent unhinted = withoutHint(hinted);

        List<ClassifiedCall> out = classify(hinted, unhinted);

        assertThat(out).hasSize(2);
        ClassifiedCall hintedHeld = out.get(0);
        assertThat(hintedHeld.event()).isEqualTo(hinted.withoutBodies());
        assertThat(hintedHeld.bodies()).isNotNull();
        assertThat(hintedHeld.wholeEvent()).isEqualTo(hinted);
        assertThat(Json.write(hintedHeld.detail())).isEqualTo(Json.write(Calls.classified(hinted).detail()));
        assertThat(hintedHeld.requestDigest()).isEqualTo(Calls.classified(hinted).requestDigest());
        assertThat(out.get(1).bodies()).isNull();
        assertThat(out.get(1).wholeEvent()).isSameAs(out.get(1).event());
        ClassifiedCall held = out.get(1);
        ClassifiedCall whole = Calls.classified(unhinted);
        assertThat(held.event().request().body()).isNull();
        assertThat(held.event().response().body()).isNull();
        assertThat(held.event()).isEqualTo(new CallEvent(unhinted.schema(), unhinted.eventId(), unhinted.pipeline(),
                null, unhinted.startedAt(), unhinted.endedAt(),
                new HttpRequest("POST", EMBED, unhinted.request().headers(), null),
                new HttpResponse(200, unhinted.response().headers(), null), CallEvent.SOURCE_PROXY));
        assertThat(Json.write(held.detail())).isEqualTo(Json.write(whole.detail())); // vectors are arrays
        assertThat(held.stage()).isEqualTo(whole.stage());
        assertThat(held.requestDigest()).isEqualTo(whole.requestDigest()).isNotEqualTo(RequestDigest.NONE);
    }

    @Test
    void shouldKeepTheDigestThroughTheHandOverAndComputeItForCallsHeldWithTheirBody() throws Exception {
        ClassifiedCall whole = Calls.classified(withoutHint(Calls.post(EMBED, REQUEST, 200, REPLY)));
        ClassifiedCall held = whole.forAssembly();
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);

        assertThat(Json.write(roundTrip(serializer, held))).isEqualTo(Json.write(held));
        // a call kept in state by an older release: its body, no digest (the field is missing from its document)
        String older = Json.write(whole).replaceAll(",?\"request_digest\":-?[0-9]+", "");
        assertThat(older).doesNotContain("request_digest");
        assertThat(Json.MAPPER.readValue(older, ClassifiedCall.class).requestDigest()).isEqualTo(whole.requestDigest());
    }

    @Test
    void shouldGiveAHintedCallBackWithTheBodiesItWasCapturedWithAfterTheHandOver() throws Exception {
        String request = "{\"model\":\"gpt-4o\",\"temperature\":0.1,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"d\u00e9j\u00e0 vu \\\"quoted\\\" \\u0001 \ud83d\ude00\"}],\"n\":12345678901234,"
                + "\"f\":1.0E-7,\"x\":null,\"b\":[true,false]}";
        String reply = "{'choices':[{'index':0,'message':{'role':'assistant','content':'1066'}}],'usage':{'total':9}}";
        CallEvent captured = Calls.call("POST", "https://api.openai.com/v1/chat/completions",
                Json.MAPPER.readTree(request), 200, Calls.json(reply));
        assertThat(Json.MAPPER.writeValueAsString(captured.request().body())).isEqualTo(request);
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);

        ClassifiedCall held = roundTrip(serializer, Calls.classified(captured).forAssembly());

        assertThat(held.event().request().body()).isNull();
        assertThat(held.event().response().body()).isNull();
        CallEvent whole = held.wholeEvent();
        assertThat(Json.MAPPER.writeValueAsString(whole.request().body())).isEqualTo(request);
        assertThat(Json.write(whole.response().body())).isEqualTo(Json.write(captured.response().body()));
        assertThat(Json.write(whole)).isEqualTo(Json.write(captured));
    }

    @Test
    void shouldGiveACallHeldByAnOlderReleaseBackWhole() throws Exception {
        CallEvent hinted = Calls.post(EMBED, REQUEST, 200, REPLY);
        // what the release before held in state for a hinted call: the call with its bodies, no held bytes
        ClassifiedCall older = Calls.classified(hinted);
        String olderJson = Json.write(older);
        assertThat(olderJson).doesNotContain("\"bodies\"");

        // as serializer snapshot version 3 wrote it: Smile, binary values 7-bit (the header says so)
        byte[] document = Json.configure(SmileMapper.builder()).writeValueAsBytes(older);
        DataOutputSerializer framed = new DataOutputSerializer(1024);
        framed.writeInt(document.length);
        framed.write(document);

        ClassifiedCall restored = new JacksonSerializer<>(ClassifiedCall.class)
                .deserialize(new DataInputDeserializer(framed.getCopyOfBuffer()));

        assertThat(restored.bodies()).isNull();
        assertThat(restored.wholeEvent()).isEqualTo(hinted);
        assertThat(roundTrip(new JacksonSerializer<>(ClassifiedCall.class), restored).wholeEvent()).isEqualTo(hinted);
        assertThat(Json.MAPPER.readValue(olderJson, ClassifiedCall.class).wholeEvent()).isEqualTo(hinted);
    }

    @Test
    void shouldTellARetryOfTheSameRequestFromAnotherRequest() {
        ClassifiedCall failed = Calls.classified(withoutHint(Calls.post(EMBED, REQUEST, 429, "{'error':'rate'}")));
        ClassifiedCall retried = Calls.classified(withoutHint(Calls.post(EMBED,
                "{'input':'when did the normans arrive','model':'text-embedding-3-small'}", 200, REPLY)));
        ClassifiedCall other = Calls.classified(withoutHint(Calls.post(EMBED,
                "{'model':'text-embedding-3-small','input':'when did the normans arrivE'}", 200, REPLY)));

        assertThat(failed.forAssembly().sameRequest(retried.forAssembly())).isTrue();
        assertThat(failed.forAssembly().sameRequest(other.forAssembly())).isFalse();
    }

    @Test
    void shouldDigestEqualBodiesAlikeAndDifferentOnesApart() {
        String body = "{'messages':[{'role':'user','content':'a'},{'role':'system','content':'b'}],'n':1,"
                + "'t':0.5,'s':true,'x':null,'nested':{'k':[1,2,3]}}";
        long digest = RequestDigest.of(Calls.json(body));

        assertThat(RequestDigest.of(Calls.json("{'n':1,'nested':{'k':[1,2,3]},'t':0.5,'x':null,'s':true,"
                + "'messages':[{'content':'a','role':'user'},{'role':'system','content':'b'}]}"))).isEqualTo(digest);
        for (String changed : List.of(body.replace("'a'", "'A'"), body.replace("[1,2,3]", "[1,3,2]"),
                body.replace("'n':1", "'n':1.0"), body.replace("'n':1", "'n':'1'"), body.replace("true", "false"),
                body.replace("'x':null", "'y':null"), body.replace("[1,2,3]", "[1,2,3,null]"),
                body.replace("'content':'b'}]", "'content':'b'},{}]"))) {
            assertThat(RequestDigest.of(Calls.json(changed))).as(changed).isNotEqualTo(digest);
        }
        assertThat(RequestDigest.of(null)).isEqualTo(RequestDigest.NONE);
        assertThat(RequestDigest.of(Calls.json("{}"))).isNotEqualTo(RequestDigest.NONE);
    }

    /** A vector read as doubles ({@code JsonTrees}) digests as the same vector read as one node per element. */
    @Test
    void shouldDigestAVectorHeldAsDoublesAsItsNodes() throws Exception {
        double[] values = new double[24];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i + 1) * 1e-3 * (i % 2 == 0 ? 1 : -1);
        }
        byte[] body = vectorBody(values);
        JsonNode packed = JsonTrees.read(body);

        assertThat(packed.get("vector")).isInstanceOf(DoubleArrayNode.class);
        assertThat(packed.get("k").get(0)).isInstanceOf(DoubleArrayNode.class);
        long digest = RequestDigest.of(packed);
        assertThat(digest).isEqualTo(RequestDigest.of(Json.MAPPER.readTree(body)));
        values[23] = Math.nextUp(values[23]);
        assertThat(RequestDigest.of(JsonTrees.read(vectorBody(values)))).isNotEqualTo(digest);
    }

    private static byte[] vectorBody(double[] values) {
        StringBuilder vector = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            vector.append(i == 0 ? "" : ",").append(values[i]);
        }
        vector.append(']');
        return ("{\"model\":\"m\",\"vector\":" + vector + ",\"k\":[" + vector + "]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static CallEvent withoutHint(CallEvent call) {
        return new CallEvent(call.schema(), call.eventId(), call.pipeline(), null, call.startedAt(), call.endedAt(),
                call.request(), call.response(), call.source());
    }

    private static List<ClassifiedCall> classify(CallEvent... calls) throws Exception {
        ClassifyCallsFunction function = new ClassifyCallsFunction(BuiltInAdapters.classifier());
        try (OneInputStreamOperatorTestHarness<CallEvent, ClassifiedCall> h =
                new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(function))) {
            h.open();
            for (CallEvent call : calls) {
                h.processElement(call, 0L);
            }
            return h.extractOutputStreamRecords().stream().<ClassifiedCall>map(StreamRecord::getValue).toList();
        }
    }

    private static ClassifiedCall roundTrip(JacksonSerializer<ClassifiedCall> serializer, ClassifiedCall call)
            throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        serializer.serialize(call, out);
        return serializer.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
    }
}

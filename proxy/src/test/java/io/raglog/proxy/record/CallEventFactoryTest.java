package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.CallEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallEventFactoryTest {

    private final CallEventFactory factory = new CallEventFactory(new Redactor(RedactionRules.defaults()),
            "default-pipeline", 1 << 20);

    private static CapturedCall call(String routePipeline, List<Map.Entry<String, String>> requestHeaders,
            CapturedBody responseBody, String incomplete) {
        byte[] request = "{\"input\":\"q\"}".getBytes(StandardCharsets.UTF_8);
        return new CapturedCall(Instant.parse("2026-01-01T10:00:00.100Z"), Instant.parse("2026-01-01T10:00:00.350Z"),
                routePipeline, "POST", "https://api.openai.com/v1/embeddings?api-key=FAKE", requestHeaders,
                new CapturedBody(request, request.length), 200,
                List.of(Map.entry("Content-Type", "application/json"), Map.entry("Set-Cookie", "a=FAKE"),
                        Map.entry("Set-Cookie", "b=FAKE")),
                responseBody, incomplete);
    }

    private static CapturedBody body(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new CapturedBody(b, b.length);
    }

    @Test
    void shouldTakeThePipelineFromTheRouteThenTheHeaderThenTheDefault() {
        List<Map.Entry<String, String>> withHeader = List.of(Map.entry("X-Raglog-Pipeline", "from-header"));
        assertThat(factory.build(call("from-route", withHeader, body("{}"), null)).pipeline()).isEqualTo("from-route");
        assertThat(factory.build(call(null, withHeader, body("{}"), null)).pipeline()).isEqualTo("from-header");
        assertThat(factory.build(call(null, List.of(), body("{}"), null)).pipeline()).isEqualTo("default-pipeline");
    }

    @Test
    void shouldLowerCaseHeaderNamesJoinRepeatsAndDropRaglogHeaders() {
        CallEvent event = factory.build(call(null, List.of(Map.entry("Content-Type", "application/json"),
                Map.entry("X-Raglog-Run-Id", "run-9"), Map.entry("Accept", "a"), Map.entry("ACCEPT", "b")),
                body("{}"), null));

        assertThat(event.runHint()).isEqualTo("run-9");
        assertThat(event.request().headers()).containsOnly(Map.entry("content-type", "application/json"),
                Map.entry("accept", "a, b"));
        assertThat(event.response().headers()).containsEntry("set-cookie", "REDACTED");
        assertThat(event.request().url()).isEqualTo("https://api.openai.com/v1/embeddings?api-key=REDACTED");
        assertThat(event.source()).isEqualTo("proxy");
        assertThat(event.latencyMillis()).isEqualTo(250);
    }

    @Test
    void shouldMarkCutBodiesAndEarlyEnds() {
        byte[] start = "data: {\"choices\":[".getBytes(StandardCharsets.UTF_8);
        CallEvent event = factory.build(call(null, List.of(), new CapturedBody(start, 90_000),
                "client closed the connection before the response ended"));

        assertThat(event.response().headers()).containsEntry(CallEventFactory.TRUNCATED_HEADER, "90000")
                .containsEntry(CallEventFactory.INCOMPLETE_HEADER,
                        "client closed the connection before the response ended");
        assertThat(event.response().body().textValue()).isEqualTo("data: {\"choices\":[");
    }

    @Test
    void shouldRecordABedrockEventStreamReplyAsServerSentEvents() {
        String delta = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Acme\"},\"p\":\"abcd\"}";
        String metadata = "{\"usage\":{\"inputTokens\":12,\"outputTokens\":3,\"totalTokens\":15},"
                + "\"metrics\":{\"latencyMs\":400}}";
        byte[] reply = EventStreamFrames.stream(EventStreamFrames.event("contentBlockDelta", delta),
                EventStreamFrames.event("metadata", metadata));

        CallEvent whole = factory.build(bedrockCall(new CapturedBody(reply, reply.length)));
        assertThat(whole.response().body().textValue()).isEqualTo("event: contentBlockDelta\ndata: " + delta + "\n\n"
                + "event: metadata\ndata: " + metadata + "\n\n");
        assertThat(whole.response().headers()).doesNotContainKey(CallEventFactory.TRUNCATED_HEADER);

        byte[] cut = Arrays.copyOf(reply, reply.length - 1);
        CallEvent endedEarly = factory.build(bedrockCall(new CapturedBody(cut, cut.length)));
        assertThat(endedEarly.response().body().textValue())
                .isEqualTo("event: contentBlockDelta\ndata: " + delta + "\n\n");
        assertThat(endedEarly.response().headers()).as("the last message was cut short")
                .containsEntry(CallEventFactory.TRUNCATED_HEADER, Integer.toString(cut.length));
    }

    private static CapturedCall bedrockCall(CapturedBody reply) {
        byte[] request = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"q\"}]}]}"
                .getBytes(StandardCharsets.UTF_8);
        return new CapturedCall(Instant.parse("2026-01-01T10:00:00.100Z"), Instant.parse("2026-01-01T10:00:00.500Z"),
                null, "POST",
                "https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse-stream",
                List.of(Map.entry("Content-Type", "application/json")), new CapturedBody(request, request.length), 200,
                List.of(Map.entry("Content-Type", "application/vnd.amazon.eventstream"),
                        Map.entry("x-amzn-RequestId", "req-1")),
                reply, null);
    }

    @Test
    void shouldRefuseToStartWithoutADefaultPipeline() {
        assertThatThrownBy(() -> new CallEventFactory(new Redactor(RedactionRules.defaults()), " ", 1))
                .hasMessageContaining("default pipeline");
    }

    @Test
    void shouldCopyTheSessionHeaderIntoTheSessionAndKeepItAmongTheHeaders() {
        CallEventFactory withSessions = new CallEventFactory(new Redactor(RedactionRules.defaults()), "p", 1 << 20,
                "x-session-id");
        CallEvent event = withSessions.build(call(null, List.of(Map.entry("X-Session-Id", " s-42 ")), body("{}"),
                null));

        assertThat(event.session()).isEqualTo("s-42");
        assertThat(event.request().headers()).containsEntry("x-session-id", " s-42 ");
        assertThat(withSessions.build(call(null, List.of(), body("{}"), null)).session()).isNull();
        assertThat(factory.build(call(null, List.of(Map.entry("x-session-id", "s-42")), body("{}"), null)).session())
                .as("no session header configured").isNull();
    }

    @Test
    void shouldNeverCopyARedactedHeaderIntoTheSession() {
        // The config refuses a secret session header; the factory holds even when handed one.
        CallEventFactory misconfigured = new CallEventFactory(new Redactor(RedactionRules.defaults()), "p", 1 << 20,
                "authorization");
        CallEvent event = misconfigured.build(call(null, List.of(Map.entry("Authorization", "Bearer sk-FAKE")),
                body("{}"), null));

        assertThat(event.session()).isNull();
        assertThat(io.raglog.schemas.Json.write(event)).doesNotContain("sk-FAKE");
    }
}

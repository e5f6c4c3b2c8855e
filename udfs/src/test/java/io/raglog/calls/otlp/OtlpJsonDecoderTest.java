package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.OtlpFixtures.GENAI_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.OPENINFERENCE_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OtlpJsonDecoderTest {

    private final OtlpJsonDecoder decoder = new OtlpJsonDecoder();

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void shouldTurnEachStageSpanOfALlamaIndexTraceIntoOneCallAndCountTheRest() {
        OtlpDecoding decoding = decoder.decode(OtlpFixtures.json(OPENINFERENCE_TRACE));

        assertThat(decoding.failed()).isFalse();
        assertThat(decoding.spans()).isEqualTo(8);
        // The HTTP server span and the two CHAIN spans are glue, not stage calls.
        assertThat(decoding.droppedNotStage()).isEqualTo(3);
        assertThat(decoding.calls()).extracting(c -> c.request().url()).containsExactly(
                "otlp://acme-support-rag/OpenAI.chat",
                "otlp://acme-support-rag/VectorIndexRetriever.retrieve",
                "otlp://acme-support-rag/OpenAIEmbedding.get_query_embedding",
                "otlp://acme-support-rag/CohereRerank.postprocess_nodes",
                "otlp://acme-support-rag/OpenAI.chat");
    }

    @Test
    void shouldWriteASpanAsACallByTheSpanAsCallConvention() {
        CallEvent retrieval = decoder.decode(OtlpFixtures.json(OPENINFERENCE_TRACE)).calls().get(1);

        assertThat(retrieval.schema()).isEqualTo(SchemaIds.CALL_V1);
        assertThat(retrieval.eventId()).isEqualTo(TRACE_ID + ":1d2c3b4a59687706");
        assertThat(retrieval.runHint()).isEqualTo(TRACE_ID);
        assertThat(retrieval.pipeline()).isEqualTo("acme-support-rag");
        assertThat(retrieval.source()).isEqualTo(CallEvent.SOURCE_OTLP);
        // Full nanosecond precision: 1764420000123456789 + 615 ms.
        assertThat(retrieval.startedAt()).isEqualTo(Instant.ofEpochSecond(1_764_420_000L, 738_456_789L));
        assertThat(retrieval.endedAt()).isEqualTo(Instant.ofEpochSecond(1_764_420_001L, 26_456_789L));
        assertThat(retrieval.request().method()).isEqualTo("SPAN");
        assertThat(retrieval.request().headers()).containsExactly(
                Map.entry("x-otel-span-kind", "SPAN_KIND_INTERNAL"),
                Map.entry("x-otel-parent-span-id", "4a3c9b1d2e5f6071"),
                Map.entry("x-otel-scope", "openinference.instrumentation.llama_index"));
        assertThat(retrieval.response().status()).isEqualTo(200);
        assertThat(retrieval.response().headers()).isEmpty();
        assertThat(retrieval.response().body()).as("no events, no response body").isNull();
    }

    @Test
    void shouldCarryEverySpanAttributeTypedUnderItsFlatKey() {
        List<CallEvent> calls = decoder.decode(OtlpFixtures.json(OPENINFERENCE_TRACE)).calls();
        JsonNode retrieval = calls.get(1).request().body();
        JsonNode reranker = calls.get(3).request().body();
        JsonNode embedding = calls.get(2).request().body();

        assertThat(retrieval.get("openinference.span.kind").textValue()).isEqualTo("RETRIEVER");
        assertThat(retrieval.get("retrieval.documents.0.document.id").textValue()).isEqualTo("acme-10k-2023-p47-c2");
        assertThat(retrieval.get("retrieval.documents.0.document.score").isDouble()).isTrue();
        assertThat(retrieval.get("retrieval.documents.0.document.score").doubleValue()).isEqualTo(0.8412);
        assertThat(retrieval.get("retrieval.documents.0.document.metadata").textValue())
                .isEqualTo("{\"file_name\": \"acme-10k-2023.pdf\", \"page_label\": \"47\"}");
        assertThat(retrieval.get("app.cache_hit").isBoolean()).isTrue();
        assertThat(retrieval.get("app.cache_hit").booleanValue()).isFalse();
        // OTLP/JSON writes int64 values as strings; in the call they are numbers again.
        assertThat(reranker.get("reranker.top_k").isInt()).isTrue();
        assertThat(reranker.get("reranker.top_k").intValue()).isEqualTo(3);
        assertThat(embedding.get("embedding.embeddings.0.embedding.vector").isArray()).isTrue();
        assertThat(embedding.get("embedding.embeddings.0.embedding.vector").get(1).doubleValue()).isEqualTo(-0.0456);
    }

    @Test
    void shouldReadArraysAndKeyValueListsAsJsonArraysAndObjects() {
        List<CallEvent> calls = decoder.decode(OtlpFixtures.json(GENAI_TRACE)).calls();
        CallEvent retrieval = calls.stream().filter(c -> c.request().url().endsWith("/retrieval faq-kb")).findFirst()
                .orElseThrow();
        JsonNode documents = retrieval.request().body().get("gen_ai.retrieval.documents");

        assertThat(documents.isArray()).isTrue();
        assertThat(documents).hasSize(4);
        assertThat(documents.get(0).get("id").textValue()).isEqualTo("faq-118");
        assertThat(documents.get(0).get("score").doubleValue()).isEqualTo(0.8871);
        assertThat(retrieval.request().body().get("gen_ai.request.top_k").doubleValue()).isEqualTo(4.0);
        assertThat(retrieval.request().headers()).containsEntry("x-otel-span-kind", "SPAN_KIND_CLIENT");
    }

    @Test
    void shouldKeepSpanEventsInTheResponseBody() {
        List<CallEvent> calls = decoder.decode(OtlpFixtures.json(GENAI_TRACE)).calls();
        CallEvent rewrite = calls.stream().filter(c -> c.request().headers().get("x-otel-scope")
                .equals("azure.ai.inference")).findFirst().orElseThrow();

        JsonNode events = rewrite.response().body().get("events");
        assertThat(events).extracting(e -> e.get("name").textValue())
                .containsExactly("gen_ai.system.message", "gen_ai.user.message", "gen_ai.choice");
        assertThat(events.get(2).get("time_unix_nano").longValue()).isEqualTo(1_764_420_121_518_654_321L);
        assertThat(events.get(1).get("attributes").get("gen_ai.event.content").textValue())
                .contains("how do i reset my password");
    }

    @Test
    void shouldDecodeAGenAiTraceWithItsApplicationRootDropped() {
        OtlpDecoding decoding = decoder.decode(OtlpFixtures.json(GENAI_TRACE));

        assertThat(decoding.failed()).isFalse();
        assertThat(decoding.spans()).isEqualTo(5);
        assertThat(decoding.droppedNotStage()).as("the rag.query root").isEqualTo(1);
        assertThat(decoding.calls()).extracting(CallEvent::pipeline).containsOnly("faq-bot");
        assertThat(decoding.calls()).extracting(CallEvent::runHint).containsOnly("5b8efff798038103d269b633813fc60c");
    }

    @Test
    void shouldReadUpperCaseHexIdsAsLowerCase() {
        String json = text(OPENINFERENCE_TRACE).replace(TRACE_ID, TRACE_ID.toUpperCase())
                .replace("1d2c3b4a59687706", "1D2C3B4A59687706");

        CallEvent retrieval = decoder.decode(bytes(json)).calls().get(1);

        assertThat(retrieval.runHint()).isEqualTo(TRACE_ID);
        assertThat(retrieval.eventId()).isEqualTo(TRACE_ID + ":1d2c3b4a59687706");
    }

    @Test
    void shouldAnswer500ForASpanWhoseStatusIsError() {
        String json = text(OPENINFERENCE_TRACE).replaceFirst("\"status\": \\{}\\s*}\\s*]\\s*}\\s*]",
                "\"status\": {\"code\": 2, \"message\": \"RateLimitError: 429\"} } ] } ]");
        OtlpDecoding decoding = decoder.decode(bytes(json));

        CallEvent generator = decoding.calls().get(4);
        assertThat(generator.response().status()).isEqualTo(500);
        assertThat(generator.failed()).isTrue();
        assertThat(decoding.calls().get(0).response().status()).isEqualTo(200);
    }

    @Test
    void shouldNameTheServiceUnknownWhenTheResourceHasNone() {
        String json = """
                {"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",
                   "name": "embeddings all-minilm", "kind": 3,
                   "startTimeUnixNano": "1764420000000000000", "endTimeUnixNano": "1764420000050000000",
                   "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "embeddings"}}]}]}]}]}
                """;

        CallEvent call = decoder.decode(bytes(json)).calls().get(0);

        assertThat(call.pipeline()).isEqualTo("unknown_service");
        assertThat(call.request().url()).isEqualTo("otlp://unknown_service/embeddings all-minilm");
        assertThat(call.request().headers()).containsEntry("x-otel-parent-span-id", "").containsEntry("x-otel-scope", "");
    }

    @Test
    void shouldAlsoReadTheStockProtobufJsonMapping() {
        // Some exporters use protobuf's own JSON printer: snake_case names, enum names, base64 ids, number times.
        String json = """
                {"resource_spans": [{"resource": {"attributes": [{"key": "service.name", "value": {"string_value": "faq-bot"}}]},
                  "scope_spans": [{"spans": [
                  {"trace_id": "W47/95gDgQPSabYzgT/GDA==", "span_id": "7uGbfsPBsXQ=",
                   "name": "chat gpt-4o-mini", "kind": "SPAN_KIND_CLIENT",
                   "start_time_unix_nano": 1764420000000000000, "end_time_unix_nano": 1764420000900000000,
                   "status": {"code": "STATUS_CODE_ERROR"},
                   "attributes": [{"key": "gen_ai.operation.name", "value": {"string_value": "chat"}},
                                  {"key": "gen_ai.usage.input_tokens", "value": {"int_value": 12}}]}]}]}]}
                """;

        CallEvent call = decoder.decode(bytes(json)).calls().get(0);

        assertThat(call.runHint()).isEqualTo("5b8efff798038103d269b633813fc60c");
        assertThat(call.eventId()).isEqualTo("5b8efff798038103d269b633813fc60c:eee19b7ec3c1b174");
        assertThat(call.request().headers()).containsEntry("x-otel-span-kind", "SPAN_KIND_CLIENT");
        assertThat(call.response().status()).isEqualTo(500);
        assertThat(call.request().body().get("gen_ai.usage.input_tokens").intValue()).isEqualTo(12);
    }

    @Test
    void shouldSurviveTheContractsJsonRoundTripUnchanged() {
        for (CallEvent call : decoder.decode(OtlpFixtures.json(GENAI_TRACE)).calls()) {
            CallEvent back = Json.read(Json.write(call), CallEvent.class);
            assertThat(back.request()).isEqualTo(call.request());
            assertThat(back.startedAt()).isEqualTo(call.startedAt());
            assertThat(back.eventId()).isEqualTo(call.eventId());
            assertThat(back.response().status()).isEqualTo(call.response().status());
        }
    }

    // --- messages that cannot be decoded: an error for the dead-letter topic, never an exception ---

    @Test
    void shouldExplainATruncatedMessage() {
        byte[] whole = OtlpFixtures.json(OPENINFERENCE_TRACE);

        OtlpDecoding decoding = decoder.decode(Arrays.copyOf(whole, whole.length / 2));

        assertThat(decoding.failed()).isTrue();
        assertThat(decoding.calls()).isEmpty();
        assertThat(decoding.error()).startsWith("otlp_json: not valid JSON at line ").contains("Unexpected end-of-input");
    }

    @Test
    void shouldNameTheFieldOfWrongType() {
        String spansAsObject = """
                {"resourceSpans": [{"scopeSpans": [{"spans": {"name": "chat"}}]}]}""";
        String timeAsBoolean = text(GENAI_TRACE).replaceFirst("\"startTimeUnixNano\": \"\\d+\"", "\"startTimeUnixNano\": true");
        String intAsWord = text(GENAI_TRACE).replaceFirst("\"intValue\": \"41\"", "\"intValue\": \"forty-one\"");

        assertThat(decoder.decode(bytes(spansAsObject)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[0].spans: expected an array, got object");
        assertThat(decoder.decode(bytes(timeAsBoolean)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano:"
                        + " expected an integer string, got boolean");
        assertThat(decoder.decode(bytes(intAsWord)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[1].spans[0].attributes[7].value.intValue:"
                        + " not an integer: \"forty-one\"");
    }

    /** An attribute's location is written only when it is wrong: each of these names the attribute and the field. */
    @Test
    void shouldNameTheAttributeThatIsWrong() {
        String span = """
                {"resourceSpans": [{"resource": {"attributes": %s}, "scopeSpans": [{"spans": [{"traceId":
                "5b8efff798038103d269b633813fc60c", "spanId": "e457b5a2e4d86bd1", "name": "chat",
                "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": %s}]}]}]}""";
        String fine = "[{\"key\": \"a\", \"value\": {\"stringValue\": \"x\"}}]";
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(span.formatted(fine, "[{\"key\": \"a\", \"value\": {}}, {\"value\": {\"intValue\": 1}}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[1]: attribute without a key");
        expected.put(span.formatted(fine, "[{\"key\": \"a\"}, \"pair\"]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[1]: expected an object, got string");
        expected.put(span.formatted(fine, "[{\"key\": 7, \"value\": {}}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key: expected a string, got number");
        expected.put(span.formatted(fine, "[{\"key\": \"a\", \"value\": 3}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value: expected an AnyValue object, got number");
        expected.put(span.formatted(fine, "[{\"key\": \"a\", \"value\": {\"boolValue\": \"yes\"}}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.boolValue: expected true or false,"
                        + " got string");
        expected.put(span.formatted(fine, "[{\"key\": \"a\", \"value\": {\"arrayValue\": {\"values\":"
                        + " [{\"intValue\": \"1\"}, {\"doubleValue\": \"much\"}]}}}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.arrayValue.values[1].doubleValue:"
                        + " not a number: \"much\"");
        expected.put(span.formatted(fine, "[{\"key\": \"a\", \"value\": {\"kvlistValue\": {\"values\":"
                        + " [{\"key\": \"b\", \"value\": {}}, {\"key\": \"c\", \"value\": {\"bytesValue\": \"@@\"}}]}}}]"),
                "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.kvlistValue.values[1].value.bytesValue:"
                        + " not base64: Illegal base64 character 40");
        expected.put(span.formatted("[{\"key\": \"service.name\", \"value\": {\"stringValue\": 5}}]", fine),
                "resourceSpans[0].resource.attributes[0].value.stringValue: expected a string, got number");
        expected.forEach((message, error) ->
                assertThat(decoder.decode(bytes(message)).error()).as(message).isEqualTo("otlp_json: " + error));
    }

    @Test
    void shouldRejectIdsThatAreNotSpanIds() {
        String shortTraceId = text(GENAI_TRACE).replace("5b8efff798038103d269b633813fc60c", "5b8efff79803");
        String zeroSpanId = text(GENAI_TRACE).replace("e457b5a2e4d86bd1", "0000000000000000");
        String notHex = text(GENAI_TRACE).replace("e457b5a2e4d86bd1", "not-a-span-id!");

        assertThat(decoder.decode(bytes(shortTraceId)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[0].spans[0].traceId: expected 16 bytes, got 6");
        assertThat(decoder.decode(bytes(zeroSpanId)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[0].spans[0].spanId: all zero, which OTLP defines"
                        + " as invalid");
        assertThat(decoder.decode(bytes(notHex)).error())
                .isEqualTo("otlp_json: resourceSpans[0].scopeSpans[0].spans[0].spanId: not a hex id: \"not-a-span-id!\"");
    }

    @Test
    void shouldCallAnEmptyRequestAnError() {
        assertThat(decoder.decode(new byte[0]).error()).isEqualTo("otlp_json: empty message (0 bytes)");
        assertThat(decoder.decode(bytes("{}")).error())
                .isEqualTo("otlp_json: the ExportTraceServiceRequest holds no spans (empty request)");
        assertThat(decoder.decode(bytes("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": []}]}]}")).error())
                .isEqualTo("otlp_json: the ExportTraceServiceRequest holds no spans (empty request)");
        assertThat(decoder.decode(bytes("   ")).error()).isEqualTo("otlp_json: no JSON value in 3 bytes");
    }

    @Test
    void shouldCallAnythingButOneRequestObjectAnError() {
        assertThat(decoder.decode(bytes("[{\"resourceSpans\": []}]")).error())
                .isEqualTo("otlp_json: expected an ExportTraceServiceRequest object, got array");
        assertThat(decoder.decode(bytes("{\"resourceSpans\": []} {\"resourceSpans\": []}")).error())
                .startsWith("otlp_json: not valid JSON at line 1");
        assertThat(decoder.decode(OtlpFixtures.proto(GENAI_TRACE)).error()).startsWith("otlp_json: not valid JSON");
    }

    private static String text(String fixture) {
        return new String(OtlpFixtures.json(fixture), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}

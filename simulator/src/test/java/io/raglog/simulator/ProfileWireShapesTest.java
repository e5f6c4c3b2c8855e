package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import io.raglog.simulator.wire.Vectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each profile speaks its vendors' real wire shapes, as the proxy captures them. */
class ProfileWireShapesTest {

    @TempDir
    static Path dir;

    static SimulatedLogs logs;

    @BeforeAll
    static void simulate() {
        logs = SimulatedLogs.simulate(SimulatorOptions.of("all", 400, 11).withIndexEvery(20), dir);
    }

    private static List<JsonNode> calls(String pipeline, String urlSuffix) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : logs.calls) {
            if (c.get("pipeline").asText().equals(pipeline) && SimulatedLogs.urlEndsWith(c, urlSuffix)
                    && SimulatedLogs.ok(c)) {
                out.add(c);
            }
        }
        assertThat(out).as("%s %s calls", pipeline, urlSuffix).isNotEmpty();
        return out;
    }

    private static JsonNode body(JsonNode call, String side) {
        return call.get(side).get("body");
    }

    @Test
    void shouldRecordLowerCaseHeadersWithCredentialsRedacted() {
        for (JsonNode call : logs.calls) {
            for (String side : new String[] {"request", "response"}) {
                Iterator<Map.Entry<String, JsonNode>> headers = call.get(side).get("headers").fields();
                while (headers.hasNext()) {
                    Map.Entry<String, JsonNode> h = headers.next();
                    assertThat(h.getKey()).isLowerCase();
                    if (h.getKey().equals("authorization") || h.getKey().endsWith("api-key")) {
                        assertThat(h.getValue().asText()).isEqualTo("REDACTED");
                    }
                }
            }
            assertThat(call.get("schema").asText()).isEqualTo("raglog.call/v1");
            assertThat(call.get("source").asText()).isEqualTo("proxy");
        }
    }

    @Test
    void shouldStreamOpenAiChatWithAUsageChunkBeforeDone() {
        for (JsonNode call : calls("support-assistant", "/v1/chat/completions")) {
            JsonNode request = body(call, "request");
            if (!request.path("stream").asBoolean()) {
                assertThat(body(call, "response").get("object").asText()).isEqualTo("chat.completion");
                continue;
            }
            assertThat(request.get("stream_options").get("include_usage").asBoolean()).isTrue();
            assertThat(call.get("response").get("headers").get("content-type").asText()).startsWith("text/event-stream");
            String stream = body(call, "response").asText();
            assertThat(stream).endsWith("data: [DONE]\n\n");
            List<JsonNode> events = WireReader.sseData(stream);
            JsonNode last = events.get(events.size() - 1);
            assertThat(last.get("choices")).isEmpty();
            assertThat(last.get("usage").get("completion_tokens").asInt()).isPositive();
            assertThat(events.get(0).get("choices").get(0).get("delta").get("role").asText()).isEqualTo("assistant");
            assertThat(events.get(events.size() - 2).get("choices").get(0).get("finish_reason").asText())
                    .isEqualTo("stop");
        }
    }

    @Test
    void shouldReturnOpenAiEmbeddingsAsBase64Float32WhenTheSdkAskedForIt() {
        for (JsonNode call : calls("support-assistant", "/v1/embeddings")) {
            assertThat(body(call, "request").get("encoding_format").asText()).isEqualTo("base64");
            for (JsonNode item : body(call, "response").get("data")) {
                float[] v = Vectors.fromBase64(item.get("embedding").asText());
                assertThat(v).hasSize(384);
                double norm = 0;
                for (float x : v) {
                    norm += x * x;
                }
                assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
            }
        }
        for (JsonNode call : calls("search-answers", "/openai/v1/embeddings")) {
            assertThat(body(call, "request").get("encoding_format").asText()).isEqualTo("float");
            assertThat(body(call, "response").get("data").get(0).get("embedding").isArray()).isTrue();
        }
    }

    @Test
    void shouldSpeakQdrantCohereAndTheirNeighbours() {
        for (JsonNode call : calls("support-assistant", "/points/search")) {
            assertThat(body(call, "request").get("vector")).hasSize(384);
            assertThat(body(call, "request").get("limit").asInt()).isEqualTo(10);
            JsonNode hit = body(call, "response").get("result").get(0);
            assertThat(hit.get("id").asText()).matches("[0-9a-f-]{36}");
            assertThat(hit.get("payload").get("text").asText()).isNotBlank();
            assertThat(hit.get("payload").get("doc_id").asText()).isNotBlank();
        }
        for (JsonNode call : calls("support-assistant", "/v2/rerank")) {
            JsonNode request = body(call, "request");
            assertThat(request.get("top_n").asInt()).isEqualTo(3);
            assertThat(request.get("documents")).hasSize(10);
            JsonNode results = body(call, "response").get("results");
            assertThat(results).hasSize(3);
            assertThat(results.get(0).get("relevance_score").asDouble())
                    .isGreaterThanOrEqualTo(results.get(1).get("relevance_score").asDouble());
        }
    }

    @Test
    void shouldStreamAnthropicMessagesThroughTheProxyPrefix() {
        for (JsonNode call : calls("docs-qa", "/v1/messages")) {
            assertThat(call.get("request").get("url").asText()).startsWith("http://raglog-proxy:8080/anthropic/");
            assertThat(call.get("request").get("headers").get("anthropic-version").asText()).isEqualTo("2023-06-01");
            assertThat(call.get("run_hint").isNull()).isTrue();
            List<JsonNode> events = WireReader.sseData(body(call, "response").asText());
            assertThat(events.get(0).get("type").asText()).isEqualTo("message_start");
            assertThat(events.get(events.size() - 1).get("type").asText()).isEqualTo("message_stop");
            assertThat(events).anySatisfy(e -> assertThat(e.path("delta").path("type").asText()).isEqualTo("text_delta"));
            JsonNode messageDelta = events.get(events.size() - 2);
            assertThat(messageDelta.get("type").asText()).isEqualTo("message_delta");
            assertThat(messageDelta.get("usage").get("output_tokens").asInt()).isPositive();
            assertThat(body(call, "response").asText()).contains("event: content_block_delta\ndata: ");
        }
        for (JsonNode call : calls("docs-qa", "/query")) {
            JsonNode request = body(call, "request");
            assertThat(request.get("topK").asInt()).isEqualTo(5);
            assertThat(request.get("includeMetadata").asBoolean()).isTrue();
            assertThat(body(call, "response").get("matches").get(0).get("metadata").get("text").asText()).isNotBlank();
        }
        for (JsonNode call : calls("docs-qa", "/embed")) {
            assertThat(body(call, "response").isArray()).isTrue();
            assertThat(body(call, "response").get(0)).hasSize(384);
        }
    }

    @Test
    void shouldRunTheOnPremStackWithoutARetrievalCall() {
        assertThat(logs.calls).noneSatisfy(c -> {
            assertThat(c.get("pipeline").asText()).isEqualTo("onprem-rag");
            assertThat(c.get("request").get("url").asText()).containsAnyOf("/search", "/query");
        });
        for (JsonNode call : calls("onprem-rag", "/api/chat")) {
            assertThat(body(call, "request").get("stream").asBoolean()).isFalse();
            assertThat(body(call, "response").get("done").asBoolean()).isTrue();
        }
        for (JsonNode call : calls("onprem-rag", "/api/embed")) {
            assertThat(body(call, "response").get("embeddings").get(0)).hasSize(384);
        }
        for (JsonNode call : calls("onprem-rag", "/v1/rerank")) {
            JsonNode results = body(call, "response").get("results");
            assertThat(results).hasSize(4);
            JsonNode documents = body(call, "request").get("documents");
            for (JsonNode r : results) {
                assertThat(r.get("document").get("text").asText())
                        .isEqualTo(documents.get(r.get("index").asInt()).asText());
            }
        }
        for (JsonNode call : calls("onprem-rag", "/v1/chat/completions")) {
            assertThat(call.get("request").get("url").asText()).startsWith("http://vllm:8000/");
            assertThat(call.get("request").get("headers").get("x-raglog-run-id").asText())
                    .isEqualTo(call.get("run_hint").asText());
            assertThat(body(call, "response").asText()).endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void shouldSpeakElasticsearchVoyageAndTheResponsesApi() {
        for (JsonNode call : calls("search-answers", "/_search")) {
            JsonNode knn = body(call, "request").get("knn");
            assertThat(knn.get("field").asText()).isEqualTo("embedding");
            assertThat(knn.get("query_vector")).hasSize(384);
            assertThat(knn.get("k").asInt()).isEqualTo(10);
            JsonNode hit = body(call, "response").get("hits").get("hits").get(0);
            assertThat(hit.get("_id").asText()).contains("#");
            assertThat(hit.get("_score").asDouble()).isBetween(0.0, 1.0);
            assertThat(hit.get("_source").get("text").asText()).isNotBlank();
        }
        for (JsonNode call : calls("search-answers", "/v1/rerank")) {
            assertThat(body(call, "request").has("top_k")).isFalse();
            JsonNode data = body(call, "response").get("data");
            assertThat(data).hasSize(body(call, "request").get("documents").size());
            for (int i = 1; i < data.size(); i++) {
                assertThat(data.get(i).get("relevance_score").asDouble())
                        .isLessThanOrEqualTo(data.get(i - 1).get("relevance_score").asDouble());
            }
        }
        for (JsonNode call : calls("search-answers", "/v1/responses")) {
            JsonNode content = body(call, "response").get("output").get(0).get("content").get(0);
            assertThat(content.get("type").asText()).isEqualTo("output_text");
            assertThat(body(call, "response").get("usage").get("output_tokens").asInt()).isPositive();
            assertThat(call.get("request").get("url").asText()).startsWith("http://raglog-proxy:8080/openai/");
        }
    }

    @Test
    void shouldMixIndexBuildingCallsThatBelongToNoRun() {
        List<JsonNode> bulk = new ArrayList<>();
        for (JsonNode c : logs.calls) {
            JsonNode request = c.get("request").get("body");
            boolean manyInputs = request != null && (request.path("input").size() > 16
                    || request.path("inputs").size() > 16);
            if (manyInputs || SimulatedLogs.urlEndsWith(c, "/_bulk") || SimulatedLogs.urlEndsWith(c, "/upsert")
                    || c.get("request").get("method").asText().equals("PUT")) {
                bulk.add(c);
                assertThat(c.get("run_hint").isNull()).isTrue();
            }
        }
        assertThat(bulk).extracting(c -> c.get("pipeline").asText())
                .contains("support-assistant", "docs-qa", "onprem-rag", "search-answers");
        JsonNode esBulk = calls("search-answers", "/_bulk").get(0);
        assertThat(body(esBulk, "request").isTextual()).isTrue();
        assertThat(body(esBulk, "request").asText().split("\n")).hasSize(64);
    }

    @Test
    void shouldRetryARateLimitedCallWithinTheSameRun() {
        int retried = 0;
        for (JsonNode c : logs.calls) {
            if (c.get("response").get("status").asInt() != 429) {
                continue;
            }
            assertThat(c.get("response").get("headers").get("retry-after").asText()).matches("\\d+");
            String hint = c.get("run_hint").asText(null);
            if (hint == null) {
                continue;
            }
            String url = c.get("request").get("url").asText();
            assertThat(logs.callsOfHint(hint)).anySatisfy(later -> {
                assertThat(later.get("request").get("url").asText()).isEqualTo(url);
                assertThat(later.get("response").get("status").asInt()).isEqualTo(200);
                assertThat(later.get("started_at").asText()).isGreaterThan(c.get("ended_at").asText());
            });
            retried++;
        }
        assertThat(retried).isPositive();
    }

    @Test
    void shouldInterleaveTheCallsOfRunsInFlightInCaptureOrder() {
        // compared as instants: ISO text drops trailing zero digits, so "09.043Z" sorts after "09.043178Z"
        java.time.Instant previous = java.time.Instant.MIN;
        for (JsonNode c : logs.calls) {
            java.time.Instant ended = java.time.Instant.parse(c.get("ended_at").asText());
            assertThat(ended).isAfterOrEqualTo(previous);
            previous = ended;
        }
        Map<String, Integer> lastPosition = new HashMap<>();
        int interleaved = 0;
        for (int i = 0; i < logs.calls.size(); i++) {
            String hint = logs.calls.get(i).get("run_hint").asText(null);
            if (hint == null) {
                continue;
            }
            Integer last = lastPosition.put(hint, i);
            if (last != null && last != i - 1) {
                interleaved++;
            }
        }
        assertThat(interleaved).isGreaterThan(100);
    }

    @Test
    void shouldGiveRunHintsToSomeProfilesAndNoneToOthers() {
        Map<String, Boolean> hinted = new HashMap<>();
        for (Label l : logs.labels) {
            hinted.merge(l.profile(), l.runHint() != null, (a, b) -> a && b);
        }
        assertThat(hinted).containsEntry("openai-qdrant-cohere", true).containsEntry("ollama-jina-vllm", true)
                .containsEntry("otel-llamaindex", true).containsEntry("tei-pinecone-anthropic", false)
                .containsEntry("elastic-voyage-responses", false);
    }
}

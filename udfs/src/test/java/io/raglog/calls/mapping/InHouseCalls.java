package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls to APIs no built-in adapter knows, shaped like the in-house services RAG teams put in front of their stores
 * and models: a knowledge-base search service, an {@code /answer} wrapper, an LLM gateway, an embedding service.
 */
final class InHouseCalls {

    static final String PIPELINE = "support-bot";
    static final Instant T0 = Instant.parse("2025-03-11T09:14:02.118Z");
    private static final AtomicInteger IDS = new AtomicInteger();

    private InHouseCalls() {}

    static CallEvent call(String pipeline, String method, String url, JsonNode request, int status,
            JsonNode response) {
        int n = IDS.incrementAndGet();
        Instant start = T0.plusSeconds(n);
        return new CallEvent("raglog.call/v1", "evt-" + n, pipeline, "run-" + n, start, start.plusMillis(120),
                new HttpRequest(method, url, Map.of("content-type", "application/json", "authorization", "****"),
                        request),
                new HttpResponse(status, Map.of("content-type", "application/json"), response), CallEvent.SOURCE_PROXY);
    }

    /** {@code POST /v1/kb/{id}/search}: {"query", "top_k"} -> {"hits": [{"doc": {"id", "body"}, "relevance"}]}. */
    static CallEvent search(int kb, String query, String... idAndBody) {
        ObjectNode request = Json.MAPPER.createObjectNode().put("query", query).put("top_k", idAndBody.length / 2);
        request.putObject("filters").put("lang", "en");
        request.put("api_key", "kb-live-3f9a1c77e0b24d55");
        ObjectNode response = Json.MAPPER.createObjectNode().put("took_ms", 12);
        ArrayNode hits = response.putArray("hits");
        for (int i = 0; i < idAndBody.length; i += 2) {
            ObjectNode hit = hits.addObject();
            hit.putObject("doc").put("id", idAndBody[i]).put("body", idAndBody[i + 1]).put("source", "wiki");
            hit.put("relevance", 0.91 - i * 0.1);
        }
        return call(PIPELINE, "POST", "http://search.internal:8080/v1/kb/" + kb + "/search?trace=" + kb, request, 200,
                response);
    }

    static CallEvent acmeSearch(int kb) {
        return search(kb, "Acme operating cash flow 2023",
                "fin-2023-07", "Acme's operating cash flow in 2023 was $4.1 billion, up from $3.2 billion in 2022.",
                "fin-2022-03", "In 2022 Acme reported revenue of $18.4 billion.",
                "hr-2023-11", "Acme employed 21,000 people at the end of 2023.");
    }

    static FieldMapping searchMapping() {
        return FieldMapping.retrieve(new FieldMapping.Retrieve("request.query", null, "request.top_k",
                "response.hits[*]", "doc.id", "doc.body", "relevance"));
    }

    static String searchMappingJson() {
        return "{\"stage\": \"retrieve\", \"retrieve\": {\"query_text\": \"request.query\", \"query_vector\": null,"
                + " \"top_k\": \"request.top_k\", \"results\": \"response.hits[*]\", \"result_id\": \"doc.id\","
                + " \"result_text\": \"doc.body\", \"result_score\": \"relevance\"}}";
    }

    /** {@code POST /answer}: {"question", "session"} -> {"answer", "sources": [{"id", "snippet"}], "usage"}. */
    static CallEvent answer(String question, String answer, String... sources) {
        ObjectNode request = Json.MAPPER.createObjectNode().put("question", question).put("session", "s-81f2")
                .put("max_sources", 3);
        ObjectNode response = Json.MAPPER.createObjectNode().put("answer", answer).put("model", "llama-3.1-70b");
        ArrayNode list = response.putArray("sources");
        for (int i = 0; i < sources.length; i++) {
            list.addObject().put("id", "src-" + i).put("snippet", sources[i]);
        }
        response.putObject("usage").put("prompt", 812).put("completion", 24);
        return call(PIPELINE, "POST", "https://qa.internal/answer", request, 200, response);
    }

    static FieldMapping answerMapping() {
        return FieldMapping.chat(new FieldMapping.Chat(null, null, null, null, null, "request.question",
                "response.sources", "snippet", "response.answer", "response.model", "response.usage.prompt",
                "response.usage.completion"));
    }

    /** {@code POST /llm/v2/generate}: an in-house gateway with its own message shape. */
    static CallEvent gateway(String system, String user, String reply) {
        ObjectNode request = Json.MAPPER.createObjectNode();
        ArrayNode conversation = request.putArray("conversation");
        conversation.addObject().put("speaker", "system").put("text", system);
        conversation.addObject().put("speaker", "user").put("text", user);
        request.putObject("params").put("temperature", 0.1);
        ObjectNode response = Json.MAPPER.createObjectNode();
        response.putObject("result").put("text", reply).put("finish", "stop");
        response.putObject("tokens").put("in", 640).put("out", 31);
        return call(PIPELINE, "POST", "http://llm-gateway.internal/llm/v2/generate", request, 200, response);
    }

    static FieldMapping gatewayMapping() {
        return FieldMapping.chat(new FieldMapping.Chat("request.conversation", "speaker", "text", null, null, null,
                null, null, "response.result.text", null, "response.tokens.in", "response.tokens.out"));
    }

    /** {@code POST /embed}: {"inputs": [...]} -> {"data": {"vectors": [[...]]}, "dim"}. */
    static CallEvent embed(String... texts) {
        ObjectNode request = Json.MAPPER.createObjectNode();
        ArrayNode inputs = request.putArray("inputs");
        ObjectNode response = Json.MAPPER.createObjectNode();
        ArrayNode vectors = response.putObject("data").putArray("vectors");
        for (int i = 0; i < texts.length; i++) {
            inputs.add(texts[i]);
            ArrayNode v = vectors.addArray();
            for (int d = 0; d < 8; d++) {
                v.add(0.1 * (i + 1) + 0.01 * d);
            }
        }
        response.put("dim", 8).put("model", "bge-small-inhouse");
        return call(PIPELINE, "POST", "http://embedder.internal:9000/embed", request, 200, response);
    }

    static FieldMapping embedMapping() {
        return FieldMapping.embed(new FieldMapping.Embed("request.inputs", "response.data.vectors", "response.model",
                null));
    }

    /** {@code POST /rank}: {"q", "candidates": [{"id", "text"}], "keep"} -> {"ranking": [{"position", "score"}]}. */
    static CallEvent rank(String query, String[] candidates, int[] order, double[] scores) {
        ObjectNode request = Json.MAPPER.createObjectNode().put("q", query).put("keep", order.length);
        ArrayNode list = request.putArray("candidates");
        for (int i = 0; i < candidates.length; i++) {
            list.addObject().put("id", "c" + i).put("text", candidates[i]);
        }
        ObjectNode response = Json.MAPPER.createObjectNode();
        ArrayNode ranking = response.putArray("ranking");
        for (int i = 0; i < order.length; i++) {
            ranking.addObject().put("position", order[i]).put("score", scores[i]);
        }
        return call(PIPELINE, "POST", "http://ranker.internal/rank", request, 200, response);
    }

    static FieldMapping rankMapping() {
        return FieldMapping.rerank(new FieldMapping.Rerank("request.q", "request.candidates", "text", "request.keep",
                "response.ranking", "position", "score", null));
    }

    static CallEvent failed(CallEvent call, int status) {
        return new CallEvent(call.schema(), call.eventId() + "-failed", call.pipeline(), call.runHint(),
                call.startedAt(), call.endedAt(), call.request(),
                new HttpResponse(status, Map.of(), Json.MAPPER.createObjectNode().put("error", "upstream timeout")),
                call.source());
    }

    static CallEvent withPipeline(CallEvent call, String pipeline) {
        return new CallEvent(call.schema(), call.eventId(), pipeline, call.runHint(), call.startedAt(), call.endedAt(),
                call.request(), call.response(), call.source());
    }

    static CallEvent withResponse(CallEvent call, JsonNode body) {
        return new CallEvent(call.schema(), call.eventId(), call.pipeline(), call.runHint(), call.startedAt(),
                call.endedAt(), call.request(), new HttpResponse(200, Map.of(), body), call.source());
    }
}

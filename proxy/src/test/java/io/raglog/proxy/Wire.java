package io.raglog.proxy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One RAG run's five calls in the vendors' own wire formats (OpenAI chat and embeddings, Qdrant search, Cohere rerank
 * v2, an OpenAI chat stream), consistent with each other the way a real run is: the rewrite's output is what gets
 * embedded, the embedding is the search vector, the hits are the reranker's documents, and the reranked passages are
 * in the generator's prompt.
 */
final class Wire {

    static final String QUESTION = "What was Contoso's operating cash flow in 2023?";
    static final String REWRITE = "Contoso operating cash flow 2023";
    static final float[] VECTOR = {0.12f, -0.05f, 0.33f, 0.08f, -0.21f, 0.17f, 0.02f, -0.11f};
    static final List<String> PASSAGES = List.of(
            "Contoso's revenue grew 12% in 2022, driven by cloud subscriptions.",
            "In 2023 Contoso reported operating cash flow of $4.1 billion, up from $3.6 billion.",
            "Contoso opened a new data centre in Dublin in 2021.");
    static final String ANSWER = "Contoso's operating cash flow in 2023 was $4.1 billion.";

    private Wire() {}

    static String rewriteRequest() {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", "gpt-4o-mini");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system")
                .put("content", "Rewrite the user's question as a short search query. Keep names, numbers and dates.");
        messages.addObject().put("role", "user").put("content", QUESTION);
        body.put("temperature", 0.0);
        return body.toString();
    }

    static String rewriteResponse() {
        return chatCompletion("chatcmpl-rewrite01", "gpt-4o-mini-2024-07-18", REWRITE, 38, 7);
    }

    static String chatCompletion(String id, String model, String content, int prompt, int completion) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("id", id).put("object", "chat.completion")
                .put("created", 1767225600).put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content).putNull("refusal");
        choice.putNull("logprobs").put("finish_reason", "stop");
        body.putObject("usage").put("prompt_tokens", prompt).put("completion_tokens", completion)
                .put("total_tokens", prompt + completion);
        body.put("system_fingerprint", "fp_44709d6fcb");
        return body.toString();
    }

    static String embeddingsRequest() {
        return Json.MAPPER.createObjectNode().put("model", "text-embedding-3-small").put("input", REWRITE)
                .put("encoding_format", "base64").toString();
    }

    /** OpenAI's SDKs ask for base64 by default: little-endian float32s. */
    static String embeddingsResponse() {
        ByteBuffer buf = ByteBuffer.allocate(VECTOR.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : VECTOR) {
            buf.putFloat(f);
        }
        ObjectNode body = Json.MAPPER.createObjectNode().put("object", "list");
        body.putArray("data").addObject().put("object", "embedding").put("index", 0)
                .put("embedding", Base64.getEncoder().encodeToString(buf.array()));
        body.put("model", "text-embedding-3-small");
        body.putObject("usage").put("prompt_tokens", 6).put("total_tokens", 6);
        return body.toString();
    }

    static String qdrantSearchRequest() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode vector = body.putArray("vector");
        for (float f : VECTOR) {
            vector.add(f);
        }
        body.put("limit", PASSAGES.size()).put("with_payload", true).put("with_vector", false);
        return body.toString();
    }

    static String qdrantSearchResponse() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode result = body.putArray("result");
        double[] scores = {0.83, 0.79, 0.41};
        for (int i = 0; i < PASSAGES.size(); i++) {
            ObjectNode point = result.addObject().put("id", 1000 + i).put("version", 3).put("score", scores[i]);
            point.putObject("payload").put("text", PASSAGES.get(i)).put("doc_id", "annual-report-" + i);
        }
        body.put("status", "ok").put("time", 0.0012);
        return body.toString();
    }

    static String cohereRerankRequest() {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", "rerank-v3.5").put("query", REWRITE);
        ArrayNode docs = body.putArray("documents");
        PASSAGES.forEach(docs::add);
        body.put("top_n", 2);
        return body.toString();
    }

    static String cohereRerankResponse() {
        ObjectNode body = Json.MAPPER.createObjectNode().put("id", "5807ee2e-0cda-445a-9ec8-864c60a06606");
        ArrayNode results = body.putArray("results");
        results.addObject().put("index", 1).put("relevance_score", 0.9127);
        results.addObject().put("index", 0).put("relevance_score", 0.3051);
        ObjectNode meta = body.putObject("meta");
        meta.putObject("api_version").put("version", "2");
        meta.putObject("billed_units").put("search_units", 1);
        return body.toString();
    }

    static String generateRequest() {
        String prompt = "Use the following pieces of context to answer the question at the end.\n\n"
                + PASSAGES.get(1) + "\n\n" + PASSAGES.get(0) + "\n\nQuestion: " + QUESTION + "\nHelpful Answer:";
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", "gpt-4o");
        body.putArray("messages").addObject().put("role", "user").put("content", prompt);
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        body.put("temperature", 0.0);
        return body.toString();
    }

    /** The events of a streamed chat reply, each a complete SSE event, the way OpenAI sends them. */
    static List<String> generateStream() {
        List<String> events = new ArrayList<>();
        events.add(chunk("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}", null));
        for (String piece : List.of("Contoso's", " operating", " cash flow", " in 2023", " was", " $4.1", " billion.")) {
            events.add(chunk(Json.MAPPER.createObjectNode().put("content", piece).toString(), null));
        }
        events.add(chunk("{}", "\"stop\""));
        events.add("data: {\"id\":\"chatcmpl-gen01\",\"object\":\"chat.completion.chunk\",\"created\":1767225601,"
                + "\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_50cad350e4\",\"choices\":[],"
                + "\"usage\":{\"prompt_tokens\":96,\"completion_tokens\":12,\"total_tokens\":108}}\n\n");
        events.add("data: [DONE]\n\n");
        return events;
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-gen01\",\"object\":\"chat.completion.chunk\",\"created\":1767225601,"
                + "\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_50cad350e4\",\"choices\":[{\"index\":0,"
                + "\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":" + (finishReason == null ? "null"
                        : finishReason) + "}],\"usage\":null}\n\n";
    }

    static String rateLimitError() {
        return "{\"error\":{\"message\":\"Rate limit reached for gpt-4o in organization org-raglogtest on requests per"
                + " min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.\",\"type\":\"requests\","
                + "\"param\":null,\"code\":\"rate_limit_exceeded\"}}";
    }
}

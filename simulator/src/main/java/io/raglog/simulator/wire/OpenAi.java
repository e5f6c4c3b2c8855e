package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * OpenAI's wire shapes (and those of OpenAI-compatible servers such as vLLM): chat completions plain and streamed,
 * embeddings in float or base64 encoding, the Responses API, and the 429 error body.
 */
public final class OpenAi {

    private OpenAi() {}

    public static ObjectNode chatRequest(String model, List<ObjectNode> messages, boolean stream, Double temperature) {
        ObjectNode body = Nodes.object();
        ArrayNode msgs = body.putArray("messages");
        messages.forEach(msgs::add);
        body.put("model", model);
        if (stream) {
            body.put("stream", true);
            body.putObject("stream_options").put("include_usage", true);
        }
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        return body;
    }

    public static ObjectNode usage(int prompt, int completion) {
        ObjectNode usage = Nodes.object().put("prompt_tokens", prompt).put("completion_tokens", completion)
                .put("total_tokens", prompt + completion);
        usage.putObject("prompt_tokens_details").put("cached_tokens", 0).put("audio_tokens", 0);
        usage.putObject("completion_tokens_details").put("reasoning_tokens", 0).put("audio_tokens", 0)
                .put("accepted_prediction_tokens", 0).put("rejected_prediction_tokens", 0);
        return usage;
    }

    /** A non-streamed {@code chat.completion}. */
    public static ObjectNode chatResponse(String id, long created, String model, String fingerprint, String content,
            int promptTokens, int completionTokens) {
        ObjectNode body = Nodes.object().put("id", id).put("object", "chat.completion").put("created", created)
                .put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content).putNull("refusal")
                .putArray("annotations");
        choice.putNull("logprobs");
        choice.put("finish_reason", "stop");
        body.set("usage", usage(promptTokens, completionTokens));
        body.put("service_tier", "default");
        body.put("system_fingerprint", fingerprint);
        return body;
    }

    /**
     * A streamed reply: a role chunk, one chunk per piece, a finish chunk, a usage chunk with empty choices (because
     * {@code stream_options.include_usage}), then {@code [DONE]}.
     *
     * @param fingerprint null for servers that send none (vLLM)
     */
    public static String chatStream(String id, long created, String model, String fingerprint, String content,
            int promptTokens, int completionTokens) {
        Sse sse = new Sse();
        ObjectNode first = chunk(id, created, model, fingerprint);
        ObjectNode firstChoice = first.putArray("choices").addObject().put("index", 0);
        firstChoice.putObject("delta").put("role", "assistant").put("content", "").putNull("refusal");
        firstChoice.putNull("logprobs").putNull("finish_reason");
        first.putNull("usage");
        sse.data(first);
        for (String piece : Tokens.streamPieces(content)) {
            ObjectNode c = chunk(id, created, model, fingerprint);
            ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
            choice.putObject("delta").put("content", piece);
            choice.putNull("logprobs").putNull("finish_reason");
            c.putNull("usage");
            sse.data(c);
        }
        ObjectNode finish = chunk(id, created, model, fingerprint);
        ObjectNode finishChoice = finish.putArray("choices").addObject().put("index", 0);
        finishChoice.putObject("delta");
        finishChoice.putNull("logprobs").put("finish_reason", "stop");
        finish.putNull("usage");
        sse.data(finish);
        ObjectNode usage = chunk(id, created, model, fingerprint);
        usage.putArray("choices");
        usage.set("usage", fingerprint == null
                ? Nodes.object().put("prompt_tokens", promptTokens).put("total_tokens", promptTokens + completionTokens)
                        .put("completion_tokens", completionTokens)
                : usage(promptTokens, completionTokens));
        sse.data(usage);
        sse.data("[DONE]");
        return sse.toString();
    }

    private static ObjectNode chunk(String id, long created, String model, String fingerprint) {
        ObjectNode c = Nodes.object().put("id", id).put("object", "chat.completion.chunk").put("created", created)
                .put("model", model);
        if (fingerprint != null) {
            c.put("service_tier", "default").put("system_fingerprint", fingerprint);
        }
        return c;
    }

    /**
     * @param encodingFormat {@code "base64"} (what the official SDKs send when the caller set nothing), {@code "float"},
     *     or null to leave the field out
     */
    public static ObjectNode embeddingsRequest(String model, JsonNode input, Integer dimensions,
            String encodingFormat) {
        ObjectNode body = Nodes.object();
        body.set("input", input);
        body.put("model", model);
        if (dimensions != null) {
            body.put("dimensions", dimensions);
        }
        if (encodingFormat != null) {
            body.put("encoding_format", encodingFormat);
        }
        return body;
    }

    public static ObjectNode embeddingsResponse(String model, List<float[]> vectors, boolean base64, int tokens) {
        ObjectNode body = Nodes.object().put("object", "list");
        ArrayNode data = body.putArray("data");
        for (int i = 0; i < vectors.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            if (base64) {
                item.put("embedding", Vectors.base64(vectors.get(i)));
            } else {
                item.set("embedding", Nodes.floats(vectors.get(i)));
            }
        }
        body.put("model", model);
        body.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        return body;
    }

    /** A Responses API request: instructions become the system turn, input the user turn. */
    public static ObjectNode responsesRequest(String model, String instructions, JsonNode input, Double temperature) {
        ObjectNode body = Nodes.object().put("model", model).put("instructions", instructions);
        body.set("input", input);
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        return body;
    }

    public static ObjectNode responsesResponse(String id, long createdAt, String model, String instructions,
            String messageId, String text, int inputTokens, int outputTokens, Double temperature) {
        ObjectNode body = Nodes.object().put("id", id).put("object", "response").put("created_at", createdAt)
                .put("status", "completed").put("background", false).putNull("error").putNull("incomplete_details")
                .put("instructions", instructions).putNull("max_output_tokens").put("model", model);
        ObjectNode message = body.putArray("output").addObject().put("id", messageId).put("type", "message")
                .put("status", "completed");
        message.putArray("content").addObject().put("type", "output_text").putArray("annotations");
        ((ObjectNode) message.get("content").get(0)).putArray("logprobs");
        ((ObjectNode) message.get("content").get(0)).put("text", text);
        message.put("role", "assistant");
        body.put("parallel_tool_calls", true).putNull("previous_response_id");
        body.putObject("reasoning").putNull("effort").putNull("summary");
        body.put("service_tier", "default").put("store", true).put("temperature", temperature == null ? 1.0 : temperature);
        body.putObject("text").putObject("format").put("type", "text");
        body.put("tool_choice", "auto").putArray("tools");
        body.put("top_p", 1.0).put("truncation", "disabled");
        ObjectNode usage = body.putObject("usage").put("input_tokens", inputTokens);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", outputTokens);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        usage.put("total_tokens", inputTokens + outputTokens);
        body.putNull("user");
        body.putObject("metadata");
        return body;
    }

    public static ObjectNode rateLimitError(String model, int limit, long retryMs) {
        ObjectNode body = Nodes.object();
        body.putObject("error")
                .put("message", "Rate limit reached for " + model + " in organization org-raglogsim on requests per"
                        + " min (RPM): Limit " + limit + ", Used " + limit + ", Requested 1. Please try again in "
                        + retryMs + "ms. Visit https://platform.openai.com/account/rate-limits to learn more.")
                .put("type", "requests").putNull("param").put("code", "rate_limit_exceeded");
        return body;
    }
}

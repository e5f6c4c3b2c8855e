package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Anthropic Messages: the request, the streamed event sequence, and the 429 error body. */
public final class Anthropic {

    private Anthropic() {}

    public static ObjectNode request(String model, int maxTokens, String system, List<ObjectNode> messages,
            boolean stream, Double temperature) {
        ObjectNode body = Nodes.object().put("model", model).put("max_tokens", maxTokens);
        if (system != null) {
            body.put("system", system);
        }
        ArrayNode msgs = body.putArray("messages");
        messages.forEach(msgs::add);
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        if (stream) {
            body.put("stream", true);
        }
        return body;
    }

    /** A reply whole, not streamed: one text block. */
    public static ObjectNode response(String messageId, String model, String text, int inputTokens,
            int outputTokens) {
        ObjectNode body = Nodes.object().put("id", messageId).put("type", "message").put("role", "assistant")
                .put("model", model);
        body.putArray("content").addObject().put("type", "text").put("text", text);
        body.put("stop_reason", "end_turn").putNull("stop_sequence");
        body.putObject("usage").put("input_tokens", inputTokens).put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0).put("output_tokens", outputTokens).put("service_tier", "standard");
        return body;
    }

    /** message_start, content_block_start, ping, text deltas, content_block_stop, message_delta, message_stop. */
    public static String stream(String messageId, String model, String text, int inputTokens, int outputTokens) {
        Sse sse = new Sse();
        ObjectNode start = Nodes.object().put("type", "message_start");
        ObjectNode message = start.putObject("message").put("id", messageId).put("type", "message")
                .put("role", "assistant").put("model", model);
        message.putArray("content");
        message.putNull("stop_reason").putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", inputTokens).put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0).put("output_tokens", 1).put("service_tier", "standard");
        sse.event("message_start", start);
        ObjectNode blockStart = Nodes.object().put("type", "content_block_start").put("index", 0);
        blockStart.putObject("content_block").put("type", "text").put("text", "");
        sse.event("content_block_start", blockStart);
        sse.event("ping", Nodes.object().put("type", "ping"));
        List<String> pieces = Tokens.streamPieces(text);
        // Anthropic sends a few tokens per delta, not one.
        for (int i = 0; i < pieces.size(); i += 3) {
            String delta = String.join("", pieces.subList(i, Math.min(pieces.size(), i + 3)));
            ObjectNode d = Nodes.object().put("type", "content_block_delta").put("index", 0);
            d.putObject("delta").put("type", "text_delta").put("text", delta);
            sse.event("content_block_delta", d);
        }
        sse.event("content_block_stop", Nodes.object().put("type", "content_block_stop").put("index", 0));
        ObjectNode messageDelta = Nodes.object().put("type", "message_delta");
        messageDelta.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        messageDelta.putObject("usage").put("output_tokens", outputTokens);
        sse.event("message_delta", messageDelta);
        sse.event("message_stop", Nodes.object().put("type", "message_stop"));
        return sse.toString();
    }

    public static ObjectNode rateLimitError() {
        ObjectNode body = Nodes.object().put("type", "error");
        body.putObject("error").put("type", "rate_limit_error").put("message",
                "This request would exceed the rate limit for your organization of 50 requests per minute. For"
                        + " details, refer to: https://docs.claude.com/en/api/rate-limits.");
        return body;
    }
}

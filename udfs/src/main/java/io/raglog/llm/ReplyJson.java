package io.raglog.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;

/**
 * The JSON object a model was asked to answer with, read from its reply. A Markdown code fence around the object
 * ({@code ```json ... ```}) is tolerated, as models add one whatever the prompt says; anything else around it (prose,
 * a second object) is not: what the callers do with the object is strict, and a reply they would have to dig out of
 * text is a reply they refuse.
 */
public final class ReplyJson {

    private ReplyJson() {}

    /** @throws BadReplyException with the reason, worded to go into a log line or back into the next prompt */
    public static ObjectNode object(String reply) {
        if (reply == null || reply.isBlank()) {
            throw new BadReplyException("the reply is empty");
        }
        String text = withoutFence(reply.strip());
        try {
            JsonNode root = Json.MAPPER.readTree(text);
            if (root == null || !root.isObject()) {
                throw new BadReplyException("the reply is not a JSON object");
            }
            return (ObjectNode) root;
        } catch (JsonProcessingException e) {
            throw new BadReplyException("the reply is not JSON: " + e.getOriginalMessage());
        }
    }

    private static String withoutFence(String text) {
        if (!text.startsWith("```")) {
            return text;
        }
        return text.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("\\s*```$", "");
    }
}

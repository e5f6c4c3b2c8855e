package io.raglog.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * The first checks every JSON input raglog reads makes, in one place: a message is a UTF-8 JSON object, or the reason
 * it is not, worded for the dead-letter topic. The decoders check their schema's fields after it.
 */
public final class JsonMessages {

    /** Exactly one of {@code object} and {@code reason} is set. */
    public record Parsed(JsonNode object, String reason) {}

    private JsonMessages() {}

    public static Parsed object(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return new Parsed(null, "empty message");
        }
        if (!DeadLetters.isUtf8(payload)) {
            return new Parsed(null, "not valid UTF-8");
        }
        JsonNode tree;
        try {
            // readTree's tree and errors, with embedding vectors held as doubles (issue #27)
            tree = JsonTrees.read(payload);
        } catch (JsonProcessingException e) {
            return new Parsed(null, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Parsed(null, "unreadable: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            return new Parsed(null, "not a JSON object");
        }
        return new Parsed(tree, null);
    }
}

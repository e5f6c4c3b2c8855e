package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Locale;

/**
 * Amazon Bedrock's streamed replies as the proxy records them: the AWS event stream's messages as server-sent events
 * named by their {@code :event-type} (or {@code :exception-type}). {@code converse-stream}'s events are Bedrock's own
 * ({@code contentBlockDelta}, {@code metadata}); {@code invoke-with-response-stream}'s are each a {@code chunk} whose
 * {@code bytes} are the base64 of the model's own event: Anthropic's Messages events (which name themselves in
 * {@code type}), or Nova's Converse-shaped ones (an object keyed by the event's name).
 */
final class BedrockChunks {

    /** Receives one event of a stream: its name and its payload. */
    @FunctionalInterface
    interface Handler {
        void take(String event, JsonNode payload) throws AdapterException;
    }

    private BedrockChunks() {}

    /** {@code /model/{modelId}/invoke} or its streamed form: the model's own request body, not Converse's. */
    static boolean isInvoke(Endpoint e) {
        return e.pathEndsWith("/invoke") || e.pathEndsWith("/invoke-with-response-stream");
    }

    /** An event that ends a stream with an error: an exception's type ({@code throttlingException}), or an error. */
    static boolean isError(String event) {
        return event != null && (event.toLowerCase(Locale.ROOT).endsWith("exception") || event.equals("error"));
    }

    /**
     * Reads one recorded event and hands it on: a {@code chunk}'s model event by each of its names (Nova's carry one
     * event, and the last its invocation metrics beside it), any other event as it is.
     */
    static void read(JsonParser chunk, String event, Handler handler) throws IOException, AdapterException {
        JsonNode payload = Json.MAPPER.readTree(chunk);
        byte[] inner = "chunk".equals(event) ? modelEvent(payload) : null;
        if (inner == null) {
            handler.take(event, payload);
            return;
        }
        JsonNode model = Json.MAPPER.readTree(inner);
        for (Iterator<String> names = model.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            handler.take(name, model.get(name));
        }
    }

    /**
     * A reader of a model's own stream events (Anthropic's) reading them out of an {@code invoke-with-response-stream}
     * recording's chunks; other events (an exception's) are passed over, as the stream ends at them.
     */
    static Sse.ChunkReader unwrapping(Sse.ChunkReader modelEvents) {
        return (chunk, event) -> {
            if (!"chunk".equals(event)) {
                chunk.skipChildren();
                return;
            }
            byte[] inner = modelEvent(Json.MAPPER.readTree(chunk));
            if (inner == null) {
                return;
            }
            try (JsonParser parser = Json.MAPPER.getFactory().createParser(inner)) {
                parser.nextToken();
                modelEvents.read(parser, null);
            }
        };
    }

    /** The model's own event a {@code chunk} carries, as JSON bytes; null when the payload holds none. */
    static byte[] modelEvent(JsonNode payload) throws AdapterException {
        JsonNode bytes = payload.path("bytes");
        if (!bytes.isTextual()) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(bytes.textValue());
        } catch (IllegalArgumentException e) {
            throw new AdapterException("a stream chunk's 'bytes' is not base64");
        }
    }
}

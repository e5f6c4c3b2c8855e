package io.raglog.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;

/** Builds captured calls for tests; JSON bodies are given as text with single quotes for readability. */
public final class Calls {

    private Calls() {}

    public static CallEvent post(String url, String requestJson, int status, String responseJson) {
        return call("POST", url, json(requestJson), status, json(responseJson));
    }

    /** A reply recorded as text (an event stream, NDJSON, an HTML error page). */
    public static CallEvent postWithTextReply(String url, String requestJson, int status, String responseText) {
        return call("POST", url, json(requestJson), status, TextNode.valueOf(responseText));
    }

    public static CallEvent call(String method, String url, JsonNode request, int status, JsonNode response) {
        Instant start = Instant.parse("2025-03-11T09:14:02.118Z");
        return new CallEvent("raglog.call/v1", "test-1", "test-pipeline", "run-1", start, start.plusMillis(480),
                new HttpRequest(method, url, Map.of("content-type", "application/json"), request),
                new HttpResponse(status, Map.of("content-type", "application/json"), response), CallEvent.SOURCE_PROXY);
    }

    /**
     * An Amazon Bedrock {@code invoke-with-response-stream} event as the proxy records it: a {@code chunk} whose
     * {@code bytes} are the base64 of the model's own event.
     */
    public static String bedrockChunk(String modelEvent) {
        String bytes = java.util.Base64.getEncoder().encodeToString(
                modelEvent.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "event: chunk\ndata: {\"bytes\":\"" + bytes + "\",\"p\":\"ab\"}\n\n";
    }

    public static JsonNode json(String singleQuoted) {
        if (singleQuoted == null) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ClassifiedCall classified(CallEvent call) {
        Classification c = BuiltInAdapters.classifier().classify(call);
        if (!(c instanceof Classification.Classified classified)) {
            throw new AssertionError("expected a classified call, got " + c);
        }
        return classified.call();
    }

    public static String unreadableReason(CallEvent call) {
        Classification c = BuiltInAdapters.classifier().classify(call);
        if (!(c instanceof Classification.Unreadable unreadable)) {
            throw new AssertionError("expected an unreadable call, got " + c);
        }
        return unreadable.reason();
    }
}

package io.raglog.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The response half of a captured call.
 *
 * @param body the JSON value received, or a text node: e.g. the raw text/event-stream of a streamed reply
 */
public record HttpResponse(int status, Map<String, String> headers, JsonNode body) {

    /** A JSON null body and an absent body are the same thing: both read back as null. */
    public HttpResponse {
        body = body == null || body.isNull() || body.isMissingNode() ? null : body;
    }

    public String header(String name) {
        return headers == null ? null : headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
}

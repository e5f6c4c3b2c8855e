package io.raglog.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The request half of a captured call. Header names are lower case and already redacted by the producer.
 *
 * @param body the JSON value that was sent, or a text node when the body was not JSON
 */
public record HttpRequest(String method, String url, Map<String, String> headers, JsonNode body) {

    /** A JSON null body and an absent body are the same thing: both read back as null. */
    public HttpRequest {
        body = body == null || body.isNull() || body.isMissingNode() ? null : body;
    }

    public String header(String name) {
        return headers == null ? null : headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
}

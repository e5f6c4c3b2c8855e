package io.raglog.llm;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Map;
import org.asynchttpclient.Request;
import org.asynchttpclient.RequestBuilder;
import org.asynchttpclient.uri.Uri;

/**
 * Where a provider posts and the headers it sends with every request, made once: preparing each POST from the URL
 * string and a fresh map of headers parsed the URL, concatenated the bearer token and filled a header map again for
 * every request: made once, the calling thread allocates 39.9 instead of 42.8 KB sending a run's requests (llmSends,
 * JMH). The request shares the headers, which async-http-client only reads (it copies them into the Netty request it
 * writes). The headers hold the API key: nothing here prints them.
 */
final class ChatEndpoint {

    /** Every vendor's request body is JSON. */
    static final String CONTENT_TYPE = "application/json";

    private final Uri uri;
    private final HttpHeaders headers;
    /** A POST with no body: every POST's all but its body ({@link EndpointPost}). */
    private final Request prototype;

    /** @param vendorHeaders sent after the content type, in their order */
    ChatEndpoint(String url, Map<String, String> vendorHeaders) {
        this.uri = Uri.create(url);
        HttpHeaders h = new DefaultHttpHeaders();
        h.set("content-type", CONTENT_TYPE);
        vendorHeaders.forEach(h::set);
        this.headers = h;
        this.prototype = new RequestBuilder("POST").setUri(uri).setHeaders(headers).build();
    }

    /**
     * A POST of the body: async-http-client sends a duplicate of it and releases that; the caller releases its own
     * reference once the reply came.
     *
     * @param bodyHeaders sent after the endpoint's, with this POST alone (a signature of the body); null for none
     */
    Request post(ByteBuf body, HttpHeaders bodyHeaders) {
        if (bodyHeaders == null || bodyHeaders.isEmpty()) {
            return new EndpointPost(prototype, prototype.getHeaders(), body);
        }
        return new EndpointPost(prototype, prototype.getHeaders().copy().add(bodyHeaders), body);
    }

    @Override
    public String toString() {
        return "POST " + uri.toUrl();
    }
}

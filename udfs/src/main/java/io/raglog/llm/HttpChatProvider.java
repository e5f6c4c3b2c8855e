package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaders;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.Response;

/**
 * The HTTP half every vendor shares, over async-http-client: one non-blocking POST per call, status mapped to
 * retryable or not, Retry-After read, the API key kept out of every message. Subclasses know their vendor's JSON.
 */
abstract class HttpChatProvider implements ChatProvider {

    private static final int ERROR_SNIPPET_CHARS = 300;

    protected final LlmSettings settings;
    private final AsyncHttpClient http;
    private final ChatEndpoint endpoint;
    private final BodyFrames bodies = new BodyFrames(this::writtenBody);

    protected HttpChatProvider(LlmSettings settings) {
        this.settings = settings;
        Duration timeout = settings.callTimeout();
        this.http = Dsl.asyncHttpClient(new DefaultAsyncHttpClientConfig.Builder()
                .setRequestTimeout(timeout)
                .setReadTimeout(timeout)
                .setConnectTimeout(timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10))
                .setMaxRequestRetry(0) // our retry policy is the only one, so the number of calls is bounded and known
                .setFollowRedirect(false)
                .setIoThreadsCount(2)
                .setThreadPoolName("raglog-llm")
                .setUserAgent("raglog")
                .build());
        // url() and headers() read only the settings, assigned above
        this.endpoint = new ChatEndpoint(url(), headers());
    }

    /** Where to post; asked once, when the provider is made. */
    protected abstract String url();

    /** The vendor's headers, after the content type; asked once, when the provider is made. */
    protected abstract Map<String, String> headers();

    /**
     * The vendor's request body, streamed to the bytes sent: built as a tree first, it cost 6.1 KB a run more (68.6
     * against 62.5 KB allocated building a run's requests, llmRequests, JMH).
     */
    protected abstract void writeBody(BodyParts body, ChatRequest request) throws IOException;

    /** One chat message, {@code {"role": ..., "content": ...}}, its content sent as it was escaped for the request. */
    protected static void message(BodyParts body, String role, EscapedText content) throws IOException {
        JsonGenerator json = body.json();
        json.writeStartObject();
        json.writeStringField("role", role);
        json.writeFieldName("content");
        body.text(content);
        json.writeEndObject();
    }

    /**
     * Headers that depend on the finished body, sent after {@link #headers()} with this request alone: none, for a
     * vendor whose headers are the same for every request. A signature over the body is one (AWS SigV4 signs its hash).
     * Called on the thread that sends, which may be async-http-client's event loop (a retry goes out from the thread
     * that saw the failure): it must not block.
     *
     * @param body exactly the bytes sent; read only, neither released nor moved
     * @throws LlmCallException when the request cannot be made (no credentials to sign it with)
     */
    protected HttpHeaders bodyHeaders(ByteBuf body) {
        return null;
    }

    /** The model's text and token usage from a 200 reply; {@link BadReplyException} when the shape is wrong. */
    protected abstract ChatReply reply(JsonNode body);

    @Override
    public String id() {
        return settings.judgeId();
    }

    /**
     * The bytes {@link #send} posts for the request, in the order sent ({@link BodyParts}): public for the benchmark
     * that measures building them.
     */
    public List<byte[]> requestBody(ChatRequest request) {
        return bodies.body(request);
    }

    /** The body written whole by the vendor, the user message one of its parts. */
    List<byte[]> writtenBody(ChatRequest request) {
        return BodyParts.write(body -> writeBody(body, request));
    }

    @Override
    public CompletableFuture<ChatReply> send(ChatRequest request) {
        CompletableFuture<Response> response;
        ByteBuf body = null;
        try {
            body = pooled(requestBody(request));
            response = http.executeRequest(endpoint.post(body, bodyHeaders(body))).toCompletableFuture();
        } catch (RuntimeException e) {
            if (body != null) {
                body.release();
            }
            return CompletableFuture.failedFuture(failure(e));
        }
        ByteBuf sent = body;
        return response.handle((r, error) -> {
            sent.release();
            if (error != null) {
                throw failure(error);
            }
            return toReply(r);
        });
    }

    /**
     * The body's parts copied into one pooled buffer: sent as the parts themselves, async-http-client wrapped each in a
     * buffer and a composite's component on the calling thread, which cost more than the parts a run's messages share
     * save ({@link Prompts.RunPrompts}). A heap buffer, as the parts' own wrappers were: the I/O thread copies it to
     * the socket as it did them, and the task thread takes no direct memory, which a Flink TaskManager budgets apart.
     */
    private static ByteBuf pooled(List<byte[]> parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuf body = ByteBufAllocator.DEFAULT.heapBuffer(length, length);
        for (byte[] part : parts) {
            body.writeBytes(part);
        }
        return body;
    }

    private ChatReply toReply(Response r) {
        int status = r.getStatusCode();
        if (status == 200) {
            JsonNode body;
            try {
                body = Json.MAPPER.readTree(r.getResponseBodyAsBytes());
            } catch (IOException e) {
                throw new LlmCallException(LlmCallException.Kind.BAD_REPLY, status, null,
                        "endpoint answered 200 with a body that is not JSON", null);
            }
            try {
                return reply(body);
            } catch (BadReplyException e) {
                throw new LlmCallException(LlmCallException.Kind.BAD_REPLY, status, null, e.getMessage(), null);
            }
        }
        String snippet = redact(new String(r.getResponseBodyAsBytes(), StandardCharsets.UTF_8));
        if (snippet.length() > ERROR_SNIPPET_CHARS) {
            snippet = snippet.substring(0, ERROR_SNIPPET_CHARS) + "…";
        }
        String message = "endpoint answered " + status + ": " + snippet;
        if (status == 429) {
            throw new LlmCallException(LlmCallException.Kind.RATE_LIMITED, status,
                    retryAfter(r.getHeader("retry-after")), message, null);
        }
        if (status >= 500 || status == 408) {
            throw new LlmCallException(LlmCallException.Kind.SERVER_ERROR, status,
                    retryAfter(r.getHeader("retry-after")), message, null);
        }
        throw new LlmCallException(LlmCallException.Kind.CLIENT_ERROR, status, null, message, null);
    }

    private LlmCallException failure(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof LlmCallException known) {
            return known;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return new LlmCallException(LlmCallException.Kind.TIMEOUT, 0, null,
                        "no reply within " + settings.callTimeout().toMillis() + " ms", null);
            }
        }
        // Connection refused or reset, closed mid-body: the endpoint or the path to it, worth another try.
        String message = redact(e.getClass().getSimpleName() + ": " + e.getMessage());
        return new LlmCallException(LlmCallException.Kind.NETWORK, 0, null, message, null);
    }

    /** The text with the API key masked, before it goes into a message; a vendor that sends other secrets adds them. */
    protected String redact(String text) {
        return settings.apiKey() == null ? text : settings.apiKey().redact(text);
    }

    /** Seconds ("7") or an HTTP date; null when absent or unreadable. */
    static Duration retryAfter(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String h = header.strip();
        try {
            return Duration.ofMillis(Math.max(0, (long) (Double.parseDouble(h) * 1000)));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }

    protected static long tokens(JsonNode usage, String field) {
        JsonNode v = usage == null ? null : usage.get(field);
        return v != null && v.canConvertToLong() ? v.asLong() : 0;
    }

    @Override
    public void close() {
        try {
            http.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot close the LLM HTTP client", e);
        }
    }
}

package io.raglog.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A real HTTP server on 127.0.0.1 that speaks OpenAI chat completions ({@code POST /v1/chat/completions}), Anthropic
 * messages ({@code POST /v1/messages}) and Bedrock's Converse ({@code POST /model/{modelId}/converse}, at
 * {@link #rootUrl()}), answering each check with valid JSON unless told to misbehave:
 * latency, 429 with Retry-After, 5xx, hanging past the client's timeout, truncated bodies, non-JSON, a reply of the
 * wrong shape. Faults are queued (one per request, in arrival order) or attached to the requests that match a
 * predicate (e.g. only the support check). It records every request and the peak number in flight.
 *
 * <p>Use: {@code try (var server = LlmTestServer.start()) { settings with server.baseUrl() ... }}.
 */
public final class LlmTestServer implements AutoCloseable {

    /** What to do with one request. */
    public sealed interface Fault permits Latency, Status, AwsError, Hang, Truncated, NotJson, WrongShape {}

    /** Answer normally, after a delay. */
    public record Latency(Duration delay) implements Fault {}

    /** Answer with this status (429, 500, 503, 401...), an optional Retry-After, and an error body. */
    public record Status(int status, String retryAfter, String body) implements Fault {}

    /**
     * An AWS service's error, as Bedrock answers one: the status, the error's type in {@code x-amzn-ErrorType}, and
     * {@code {"message": ...}}.
     */
    public record AwsError(int status, String errorType, String message) implements Fault {}

    /** Send nothing for this long, then close: longer than the client's timeout. */
    public record Hang(Duration duration) implements Fault {}

    /** A 200 whose JSON body is cut in half. */
    public record Truncated() implements Fault {}

    /** A 200 whose body is an HTML error page. */
    public record NotJson() implements Fault {}

    /** A well-formed reply whose content is not the check's JSON (a confidence of 250, prose). */
    public record WrongShape() implements Fault {}

    /**
     * One request as received.
     *
     * @param path decoded; {@code rawPath} as sent
     * @param headers their names in lower case
     * @param bytes the body as sent; {@code body} parsed
     */
    public record Received(String method, String path, String rawPath, Map<String, String> headers, byte[] bytes,
            JsonNode body, long atNanos) {

        public String system() {
            if (path.endsWith("/messages")) {
                return body.path("system").asText();
            }
            if (converse()) {
                return body.path("system").path(0).path("text").asText();
            }
            return body.path("messages").path(0).path("content").asText();
        }

        public String user() {
            JsonNode messages = body.path("messages");
            JsonNode last = messages.path(messages.size() - 1).path("content");
            return converse() ? last.path(0).path("text").asText() : last.asText();
        }

        /** Bedrock's Converse, whose texts are content blocks. */
        public boolean converse() {
            return path.endsWith("/converse");
        }

        /** Which check the request is for, from its prompt. */
        public LlmCheck check() {
            return CannedAnswers.checkOf(system());
        }
    }

    private record Rule(Predicate<Received> when, Fault fault) {}

    private final HttpServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(64);
    private final Queue<Fault> queued = new ConcurrentLinkedQueue<>();
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final Map<String, AtomicInteger> byPath = new ConcurrentHashMap<>();
    private volatile Duration latency = Duration.ZERO;
    private volatile Function<Received, String> answers = CannedAnswers::forRequest;

    private LlmTestServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        server.createContext("/v1/chat/completions", this::handle);
        server.createContext("/v1/messages", this::handle);
        server.createContext("/model/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    public static LlmTestServer start() throws IOException {
        return new LlmTestServer();
    }

    public String baseUrl() {
        return rootUrl() + "/v1";
    }

    /** The server without a path: Bedrock's base URL. */
    public String rootUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request waits this long before its answer. */
    public LlmTestServer latency(Duration delay) {
        this.latency = delay;
        return this;
    }

    /** The next requests, one fault each, in arrival order. */
    public LlmTestServer enqueue(Fault... faults) {
        queued.addAll(List.of(faults));
        return this;
    }

    /** Every request matching {@code when} gets {@code fault} (checked after the queue). */
    public LlmTestServer always(Predicate<Received> when, Fault fault) {
        rules.add(new Rule(when, fault));
        return this;
    }

    /** Replaces the canned answers: the model's text for a request. */
    public LlmTestServer answers(Function<Received, String> contentFor) {
        this.answers = contentFor;
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public int requests() {
        return received.size();
    }

    public int requests(String pathSuffix) {
        return byPath.getOrDefault(pathSuffix, new AtomicInteger()).get();
    }

    public int peakInFlight() {
        return peakInFlight.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        try (exchange) {
            Map<String, String> headers = new ConcurrentHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            Received r = new Received(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawPath(), headers,
                    bytes, Json.MAPPER.readTree(bytes), System.nanoTime());
            received.add(r);
            byPath.computeIfAbsent(path.substring(path.lastIndexOf('/')), k -> new AtomicInteger()).incrementAndGet();
            Fault fault = queued.poll();
            if (fault == null) {
                fault = rules.stream().filter(rule -> rule.when().test(r)).map(Rule::fault).findFirst().orElse(null);
            }
            pause(latency);
            respond(exchange, r, fault);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void respond(HttpExchange exchange, Received r, Fault fault) throws IOException {
        if (fault instanceof Latency l) {
            pause(l.delay());
        } else if (fault instanceof Status s) {
            if (s.retryAfter() != null) {
                exchange.getResponseHeaders().add("Retry-After", s.retryAfter());
            }
            send(exchange, s.status(), s.body() == null ? "{\"error\":{\"message\":\"injected\"}}" : s.body());
            return;
        } else if (fault instanceof AwsError e) {
            exchange.getResponseHeaders().add("x-amzn-ErrorType",
                    e.errorType() + ":http://internal.amazon.com/coral/com.amazon.bedrock/");
            exchange.getResponseHeaders().add("x-amzn-RequestId", "req-" + System.nanoTime());
            send(exchange, e.status(), Json.write(Json.MAPPER.createObjectNode().put("message", e.message())));
            return;
        } else if (fault instanceof Hang h) {
            pause(h.duration());
            exchange.close();
            return;
        } else if (fault instanceof NotJson) {
            send(exchange, 200, "<html><body>502 Bad Gateway</body></html>");
            return;
        }
        String content = fault instanceof WrongShape ? "{\"fault\": 250, \"note\": \"I think it is fine\"}"
                : answers.apply(r);
        String envelope = Json.write(r.path().endsWith("/messages") ? anthropicReply(r, content)
                : r.converse() ? converseReply(content) : openAiReply(r, content));
        if (fault instanceof Truncated) {
            envelope = envelope.substring(0, envelope.length() / 2);
        }
        send(exchange, 200, envelope);
    }

    private static ObjectNode openAiReply(Received r, String content) {
        ObjectNode reply = Json.MAPPER.createObjectNode();
        reply.put("id", "chatcmpl-test").put("object", "chat.completion").put("model", r.body().path("model").asText());
        reply.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
                .putObject("message").put("role", "assistant").put("content", content);
        reply.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 20).put("total_tokens", 120);
        return reply;
    }

    private static ObjectNode anthropicReply(Received r, String content) {
        ObjectNode reply = Json.MAPPER.createObjectNode();
        reply.put("id", "msg_test").put("type", "message").put("role", "assistant")
                .put("model", r.body().path("model").asText()).put("stop_reason", "end_turn");
        reply.putArray("content").addObject().put("type", "text").put("text", content);
        reply.putObject("usage").put("input_tokens", 100).put("output_tokens", 20);
        return reply;
    }

    private static ObjectNode converseReply(String content) {
        ObjectNode reply = Json.MAPPER.createObjectNode();
        reply.putObject("output").putObject("message").put("role", "assistant")
                .putArray("content").addObject().put("text", content);
        reply.put("stopReason", "end_turn");
        reply.putObject("usage").put("inputTokens", 100).put("outputTokens", 20).put("totalTokens", 120);
        reply.putObject("metrics").put("latencyMs", 5);
        return reply;
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void pause(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}

package io.raglog.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.raglog.llm.LlmCheck;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local OpenAI-compatible chat-completions endpoint with a fixed latency, for the LLM-bound benchmarks (adapted
 * from the udfs test server, {@code LlmTestServer}). Answers are valid replies for each check; the reported token
 * usage is estimated from the text (4 characters a token), so the cost figures follow the real prompt sizes.
 * Replies are scheduled, not slept on: hundreds of calls in flight cost no threads.
 */
public final class LocalLlmEndpoint implements AutoCloseable {

    /** The tokenizer-free estimate used for usage: OpenAI's rule of thumb for English text. */
    static final double CHARS_PER_TOKEN = 4.0;

    private final HttpServer server;
    private final ExecutorService readers = Executors.newFixedThreadPool(8);
    private final ScheduledExecutorService replies = Executors.newScheduledThreadPool(4);
    private final Duration latency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();

    private LocalLlmEndpoint(Duration latency) throws IOException {
        this.latency = latency;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(readers);
        server.start();
    }

    public static LocalLlmEndpoint start(Duration latency) throws IOException {
        return new LocalLlmEndpoint(latency);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public long requests() {
        return requests.get();
    }

    public int peakInFlight() {
        return peakInFlight.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        requests.incrementAndGet();
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
        } catch (IOException | RuntimeException e) {
            inFlight.decrementAndGet();
            send(exchange, 400, "{\"error\":{\"message\":\"unreadable request\"}}");
            return;
        }
        byte[] reply = Json.writeBytes(reply(body));
        if (latency.isZero()) {
            finish(exchange, reply);
        } else {
            replies.schedule(() -> finish(exchange, reply), latency.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void finish(HttpExchange exchange, byte[] reply) {
        try {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply);
            }
        } catch (IOException e) {
            // the client gave up (its timeout): nothing to answer any more
        } finally {
            exchange.close();
            inFlight.decrementAndGet();
        }
    }

    static ObjectNode reply(JsonNode request) {
        StringBuilder prompt = new StringBuilder();
        String system = "";
        for (JsonNode m : request.path("messages")) {
            String content = m.path("content").asText("");
            prompt.append(content);
            if ("system".equals(m.path("role").asText())) {
                system = content;
            }
        }
        String content = answer(system);
        ObjectNode reply = Json.MAPPER.createObjectNode();
        reply.put("id", "chatcmpl-bench").put("object", "chat.completion")
                .put("model", request.path("model").asText());
        reply.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
                .putObject("message").put("role", "assistant").put("content", content);
        long in = tokens(prompt.length());
        long out = tokens(content.length());
        reply.putObject("usage").put("prompt_tokens", in).put("completion_tokens", out).put("total_tokens", in + out);
        return reply;
    }

    static long tokens(int chars) {
        return Math.max(1, Math.round(chars / CHARS_PER_TOKEN));
    }

    /** A well-formed answer for the check the system prompt asks for. */
    static String answer(String systemPrompt) {
        LlmCheck check = checkOf(systemPrompt);
        if (check == LlmCheck.REWRITE) {
            return "{\"dropped_constraint\": 10, \"meaning_changed\": 5, \"added_content\": 0, \"fault\": 8,"
                    + " \"findings\": []}";
        }
        if (check == LlmCheck.RETRIEVAL) {
            return "{\"no_answer\": 15, \"partial\": 20, \"off_topic\": 5, \"fault\": 18, \"findings\": []}";
        }
        if (check == LlmCheck.RERANK) {
            return "{\"answer_dropped\": 5, \"bad_order\": 10, \"fault\": 7, \"findings\": []}";
        }
        if (check == LlmCheck.SUPPORT) {
            return "{\"statements\": [{\"statement\": \"The answer restates the context\", \"verdict\": \"supported\"}],"
                    + " \"fault\": 10, \"findings\": []}";
        }
        return "{\"pieces\": [], \"findings\": []}";
    }

    static LlmCheck checkOf(String systemPrompt) {
        if (systemPrompt.contains("the query rewriter")) {
            return LlmCheck.REWRITE;
        }
        if (systemPrompt.contains("vector retrieval")) {
            return LlmCheck.RETRIEVAL;
        }
        if (systemPrompt.contains("the reranker")) {
            return LlmCheck.RERANK;
        }
        if (systemPrompt.contains("statements")) {
            return LlmCheck.SUPPORT;
        }
        return LlmCheck.EVIDENCE_FLOW;
    }

    private void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        replies.shutdownNow();
        readers.shutdownNow();
    }
}

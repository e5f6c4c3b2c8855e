package io.raglog.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.raglog.bench.LocalHttpServer;
import io.raglog.llm.LlmCheck;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local OpenAI-compatible chat-completions endpoint with a fixed latency, for the LLM-bound benchmarks (adapted
 * from the udfs test server, {@code LlmTestServer}). Answers are valid replies for each check; the reported token
 * usage is estimated from the text (4 characters a token), so the cost figures follow the real prompt sizes.
 *
 * <p>Netty, keep-alive, two event-loop threads; a reply is scheduled on its connection's event loop, not slept on, so
 * hundreds of calls in flight cost no threads. (It was the JDK's {@code HttpServer} first: alone, 80 calls in flight at
 * a 500 ms latency came back p50 566 ms / p99 1.4 s, and the LLM-bound figure measured that server, not the job.)
 */
public final class LocalLlmEndpoint implements AutoCloseable {

    /** The tokenizer-free estimate used for usage: OpenAI's rule of thumb for English text. */
    static final double CHARS_PER_TOKEN = 4.0;

    private static final String PATH = "/v1/chat/completions";

    private final LocalHttpServer server;
    private final Duration latency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();

    private LocalLlmEndpoint(Duration latency) throws InterruptedException {
        this.latency = latency;
        server = new LocalHttpServer("bench-llm", 2, 16 << 20, Handler::new);
    }

    public static LocalLlmEndpoint start(Duration latency) throws IOException {
        try {
            return new LocalLlmEndpoint(latency);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the local LLM endpoint", e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.port() + "/v1";
    }

    public long requests() {
        return requests.get();
    }

    public int peakInFlight() {
        return peakInFlight.get();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (!request.uri().startsWith(PATH)) {
                respond(ctx, HttpResponseStatus.NOT_FOUND, "{\"error\":{\"message\":\"no such path\"}}"
                        .getBytes(StandardCharsets.UTF_8), keepAlive);
                return;
            }
            peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            requests.incrementAndGet();
            byte[] reply;
            try (ByteBufInputStream in = new ByteBufInputStream(request.content())) {
                reply = Json.writeBytes(reply(Json.MAPPER.readTree(in)));
            } catch (IOException | RuntimeException e) {
                inFlight.decrementAndGet();
                respond(ctx, HttpResponseStatus.BAD_REQUEST, "{\"error\":{\"message\":\"unreadable request\"}}"
                        .getBytes(StandardCharsets.UTF_8), keepAlive);
                return;
            }
            Runnable finish = () -> {
                inFlight.decrementAndGet();
                respond(ctx, HttpResponseStatus.OK, reply, keepAlive);
            };
            if (latency.isZero()) {
                finish.run();
            } else {
                ctx.executor().schedule(finish, latency.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        private void respond(ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body, boolean keepAlive) {
            ctx.writeAndFlush(LocalHttpServer.jsonResponse(status, body, keepAlive));
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

    @Override
    public void close() {
        server.close();
    }
}

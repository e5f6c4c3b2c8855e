package io.raglog.cli.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.raglog.schemas.Json;
import io.raglog.schemas.Review;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageReview;
import io.raglog.schemas.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The review page and the few JSON endpoints behind it, on the JDK's own HTTP server: the page is three static files
 * from the classpath (no build step, nothing fetched from elsewhere), the endpoints read the queue from Elasticsearch
 * and hand a submitted review to {@link ReviewOutputs}.
 *
 * <pre>
 * GET  /                      the page
 * GET  /api/pipelines         the pipelines with queued runs
 * GET  /api/queue?pipeline=&amp;stage=&amp;kind=stage|knowledge_gap&amp;from=&amp;to=&amp;size=   newest first
 * GET  /api/runs/{runId}      the verdict, the latest review, the passages as they moved when known
 * POST /api/reviews           {run_id, decisions: {stage or knowledge_gap: confirmed|rejected|added|sound},
 *                              answer_correct: true|false|null, reviewer, note}
 * </pre>
 *
 * The verdict a review is checked against is read again from the index, never taken from the browser.
 */
public final class ReviewServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReviewServer.class);
    private static final Map<String, String> STATIC = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/review.js", "review.js",
            "/review.css", "review.css");
    /** Said for a run without its passages, so no reviewer looks for what the job never stored in the index. */
    static final String PASSAGES_NOTE = "raglog-faults holds the verdict only: the passages as they moved "
            + "(retrieved, kept by the reranker, in the prompt) are on the raglog.runs topic; start the page with "
            + "--runs FILE (replay --runs-out, or the topic written to a file) to see them.";

    private final HttpServer http;
    private final ExecutorService threads;
    private final DebuggingQueue queue;
    private final ReviewOutputs outputs;
    private final Map<String, Run> runs;
    private final Clock clock;

    private ReviewServer(HttpServer http, ExecutorService threads, DebuggingQueue queue, ReviewOutputs outputs,
            Map<String, Run> runs, Clock clock) {
        this.http = http;
        this.threads = threads;
        this.queue = queue;
        this.outputs = outputs;
        this.runs = runs;
        this.clock = clock;
    }

    /**
     * Listens on {@code address} (port 0 for any free one) and serves until closed.
     *
     * @param runs the runs whose passages the page can show, by run id; empty when none were given
     */
    static ReviewServer start(InetSocketAddress address, DebuggingQueue queue, ReviewOutputs outputs,
            Map<String, Run> runs, Clock clock) throws IOException {
        HttpServer http = HttpServer.create(address, 64);
        ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "review-http");
            t.setDaemon(true);
            return t;
        });
        ReviewServer server = new ReviewServer(http, threads, queue, outputs, runs, clock);
        http.createContext("/", server::handle);
        http.setExecutor(threads);
        http.start();
        return server;
    }

    /** The page's address, e.g. {@code http://127.0.0.1:8088/}. */
    public URI url() {
        InetSocketAddress a = http.getAddress();
        return URI.create("http://" + a.getHostString() + ":" + a.getPort() + "/");
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        // closed last, not by try-with-resources: that would close it before a catch block could answer
        try {
            if ("GET".equals(method) && STATIC.containsKey(path)) {
                resource(exchange, STATIC.get(path));
            } else if ("GET".equals(method) && "/api/pipelines".equals(path)) {
                json(exchange, 200, queue.pipelines());
            } else if ("GET".equals(method) && "/api/queue".equals(path)) {
                json(exchange, 200, queue.list(QueueFilter.of(query(exchange.getRequestURI()))));
            } else if ("GET".equals(method) && path.startsWith("/api/runs/")) {
                run(exchange, URLDecoder.decode(path.substring("/api/runs/".length()), StandardCharsets.UTF_8));
            } else if ("POST".equals(method) && "/api/reviews".equals(path)) {
                submit(exchange);
            } else {
                json(exchange, 404, Map.of("error", "no such page: " + method + " " + path));
            }
        } catch (IllegalArgumentException | JsonProcessingException e) {
            json(exchange, 400, Map.of("error", String.valueOf(e.getMessage())));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", method, path, e);
            json(exchange, 502, Map.of("error", String.valueOf(e.getMessage())));
        } finally {
            exchange.close();
        }
    }

    private void run(HttpExchange exchange, String runId) throws IOException {
        Verdict verdict = queue.verdict(runId);
        if (verdict == null) {
            json(exchange, 404, Map.of("error", "run " + runId + " is not in the debugging queue"));
            return;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.set("verdict", Json.MAPPER.valueToTree(verdict));
        body.set("review", Json.MAPPER.valueToTree(queue.review(runId)));
        Run run = runs.get(runId);
        if (run != null) {
            body.set("passages", Json.MAPPER.valueToTree(PassageFlow.of(run)));
        } else {
            body.put("passages_note", PASSAGES_NOTE);
        }
        json(exchange, 200, body);
    }

    private void submit(HttpExchange exchange) throws IOException {
        JsonNode body;
        try (InputStream in = exchange.getRequestBody()) {
            body = Json.MAPPER.readTree(in);
        }
        String runId = text(body, "run_id");
        if (runId == null) {
            throw new IllegalArgumentException("run_id is missing");
        }
        Verdict verdict = queue.verdict(runId);
        if (verdict == null) {
            json(exchange, 404, Map.of("error", "run " + runId + " is not in the debugging queue"));
            return;
        }
        Map<Stage, StageReview> decisions = new EnumMap<>(Stage.class);
        StageReview gap = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = body.path("decisions").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                continue;
            }
            StageReview decision = StageReview.of(e.getValue().asText());
            if (Verdict.KNOWLEDGE_GAP.equals(e.getKey())) {
                gap = decision;
            } else {
                decisions.put(Stage.of(e.getKey()), decision);
            }
        }
        JsonNode answerCorrect = body.path("answer_correct");
        Review review = Review.of(verdict, decisions, gap,
                answerCorrect.isBoolean() ? answerCorrect.asBoolean() : null, text(body, "reviewer"),
                text(body, "note"), clock.instant());
        ReviewOutputs.Written written = outputs.write(review);
        LOG.info("review of run {} by {} written to {}", review.runId(), review.reviewer(), written);
        ObjectNode reply = Json.MAPPER.createObjectNode();
        reply.set("review", Json.MAPPER.valueToTree(review));
        reply.set("written", Json.MAPPER.valueToTree(written));
        json(exchange, 200, reply);
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.path(field);
        return value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> params = new HashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            params.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    private static void resource(HttpExchange exchange, String name) throws IOException {
        byte[] bytes;
        try (InputStream in = ReviewServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException(name + " is missing from the jar"));
            }
            bytes = in.readAllBytes();
        }
        String type = name.endsWith(".html") ? "text/html" : name.endsWith(".js") ? "text/javascript" : "text/css";
        send(exchange, 200, type + "; charset=utf-8", bytes);
    }

    private static void json(HttpExchange exchange, int status, Object value) throws IOException {
        send(exchange, status, "application/json; charset=utf-8", Json.writeBytes(value));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] bytes) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        http.stop(0);
        threads.shutdownNow();
    }
}

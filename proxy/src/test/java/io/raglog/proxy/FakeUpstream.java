package io.raglog.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;

/**
 * A local upstream on a real socket: answers each path with a scripted reply (JSON, an SSE stream sent piece by
 * piece, gzip, errors) and remembers every request exactly as it arrived, so a test can compare both sides of the
 * proxy byte for byte.
 */
final class FakeUpstream implements AutoCloseable {

    /** A request as the upstream received it. */
    record Received(String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body,
            InetSocketAddress remote) {
        String header(String name) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (h.getKey().equalsIgnoreCase(name)) {
                    return String.join(", ", h.getValue());
                }
            }
            return null;
        }
    }

    /**
     * A scripted reply. {@code pieces} are written and flushed one by one; with a {@code gate}, the last piece waits
     * for it, so a test can observe the first pieces reach the client before the reply ends.
     */
    record Reply(int status, List<String[]> headers, List<byte[]> pieces, boolean chunked, CountDownLatch gate) {

        static Reply json(int status, String json, String... headers) {
            List<String[]> h = new ArrayList<>();
            h.add(new String[] {"Content-Type", "application/json"});
            for (int i = 0; i + 1 < headers.length; i += 2) {
                h.add(new String[] {headers[i], headers[i + 1]});
            }
            return new Reply(status, h, List.of(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)), false, null);
        }

        static Reply eventStream(List<String> events, CountDownLatch gate) {
            List<byte[]> pieces = events.stream()
                    .map(e -> e.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList();
            List<String[]> h = List.of(new String[] {"Content-Type", "text/event-stream; charset=utf-8"},
                    new String[] {"Cache-Control", "no-cache"}, new String[] {"x-request-id", "req_stream"});
            return new Reply(200, h, pieces, true, gate);
        }

        static Reply gzipJson(String json) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(buf)) {
                gz.write(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return new Reply(200, List.of(new String[] {"Content-Type", "application/json"},
                    new String[] {"Content-Encoding", "gzip"}), List.of(buf.toByteArray()), false, null);
        }

        byte[] body() {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            pieces.forEach(all::writeBytes);
            return all.toByteArray();
        }
    }

    private final HttpServer server;
    private final String scheme;
    private final ExecutorService executor = Executors.newFixedThreadPool(8);
    private final Map<String, Function<Received, Reply>> routes = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    FakeUpstream() throws IOException {
        this(null);
    }

    /** With a TLS context: an https upstream, like the hosted vendors. */
    FakeUpstream(javax.net.ssl.SSLContext tls) throws IOException {
        if (tls == null) {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        } else {
            com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(
                    new InetSocketAddress("127.0.0.1", 0), 64);
            https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls));
            server = https;
        }
        scheme = tls == null ? "http" : "https";
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    URI baseUri() {
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Answers requests whose path (without query) is {@code path}. */
    FakeUpstream on(String path, Function<Received, Reply> reply) {
        routes.put(path, reply);
        return this;
    }

    FakeUpstream on(String path, Reply reply) {
        return on(path, r -> reply);
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    Received last() {
        return received.get(received.size() - 1);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            URI uri = exchange.getRequestURI();
            String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            Received r = new Received(exchange.getRequestMethod(), pathAndQuery,
                    Map.copyOf(exchange.getRequestHeaders()), body, exchange.getRemoteAddress());
            received.add(r);
            Function<Received, Reply> route = routes.get(uri.getRawPath());
            Reply reply = route != null ? route.apply(r)
                    : Reply.json(404, "{\"error\":{\"message\":\"no such path " + uri.getRawPath() + "\"}}");
            reply.headers().forEach(h -> exchange.getResponseHeaders().add(h[0], h[1]));
            byte[] all = reply.body();
            exchange.sendResponseHeaders(reply.status(), reply.chunked() ? 0 : all.length == 0 ? -1 : all.length);
            OutputStream out = exchange.getResponseBody();
            List<byte[]> pieces = reply.pieces();
            for (int i = 0; i < pieces.size(); i++) {
                if (i == pieces.size() - 1 && reply.gate() != null) {
                    await(reply.gate());
                }
                out.write(pieces.get(i));
                out.flush();
            }
        }
    }

    private static void await(CountDownLatch gate) {
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

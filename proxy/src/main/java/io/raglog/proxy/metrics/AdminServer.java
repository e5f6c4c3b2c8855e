package io.raglog.proxy.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The admin port: {@code /metrics} (Prometheus text) and {@code /healthz}. Separate from the proxy port so a scrape
 * can never be mistaken for, or routed as, a pipeline's call. The JDK's own server is plenty for a scrape every few
 * seconds and keeps it off the proxy's event loops.
 */
public final class AdminServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;

    private AdminServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static AdminServer start(InetSocketAddress address, ProxyMetrics metrics) throws IOException {
        HttpServer server = HttpServer.create(address, 16);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "raglog-proxy-admin");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> respond(exchange, 200, PrometheusText.CONTENT_TYPE,
                PrometheusText.render(metrics.snapshot())));
        server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain; charset=utf-8", "ok\n"));
        server.createContext("/", exchange -> respond(exchange, 404, "text/plain; charset=utf-8",
                "raglog proxy admin: try /metrics or /healthz\n"));
        server.start();
        return new AdminServer(server, executor);
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

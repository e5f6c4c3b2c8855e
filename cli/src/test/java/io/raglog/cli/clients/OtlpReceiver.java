package io.raglog.cli.clients;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An OTLP/HTTP traces receiver on a real socket ({@code POST /v1/traces}, JSON encoding), standing where a team's
 * Collector would: each export request's body is kept as one line of a file, the OTLP/JSON lines
 * {@code raglog replay --otlp} reads (and the Collector's Kafka exporter writes one message each).
 */
final class OtlpReceiver implements AutoCloseable {

    private final HttpServer server;
    private final Writer out;

    private OtlpReceiver(HttpServer server, Writer out) {
        this.server = server;
        this.out = out;
    }

    static OtlpReceiver start(Path file) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        OtlpReceiver receiver = new OtlpReceiver(server, Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        server.createContext("/v1/traces", receiver::receive);
        server.start();
        return receiver;
    }

    URI tracesUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces");
    }

    private void receive(HttpExchange exchange) throws IOException {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (contentType == null || !contentType.startsWith("application/json")) {
            // this receiver keeps JSON only; an exporter sending protobuf is told so, not silently dropped
            exchange.sendResponseHeaders(415, -1);
            exchange.close();
            return;
        }
        String line = new String(body, StandardCharsets.UTF_8).replace('\n', ' ').replace('\r', ' ');
        synchronized (out) {
            out.write(line);
            out.write('\n');
            out.flush();
        }
        byte[] reply = "{}".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, reply.length);
        try (OutputStream o = exchange.getResponseBody()) {
            o.write(reply);
        }
    }

    @Override
    public void close() throws IOException {
        server.stop(0);
        synchronized (out) {
            out.close();
        }
    }
}

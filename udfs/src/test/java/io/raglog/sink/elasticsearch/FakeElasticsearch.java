package io.raglog.sink.elasticsearch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A stand-in that speaks {@code _bulk} on a real loopback socket, for what a single open-source node cannot show:
 * refused credentials (it has no security), a certificate, scripted 503s and per-item 429s. It answers like
 * Elasticsearch: a bulk reply with one item per action line, in order.
 */
final class FakeElasticsearch implements AutoCloseable {

    /** What to answer to the n-th (1-based) bulk request. */
    interface Script extends IntFunction<Reply> {}

    /** A whole-request status and body, or null for a normal bulk reply. */
    record Reply(int status, String body, Set<Integer> itemsWith429) {
        static Reply ok() {
            return new Reply(200, null, Set.of());
        }

        static Reply status(int status, String body) {
            return new Reply(status, body, Set.of());
        }

        static Reply itemsRejectedAt(Set<Integer> positions) {
            return new Reply(200, null, positions);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final Script script;
    private final AtomicInteger requests = new AtomicInteger();
    final List<String> authorizationHeaders = new CopyOnWriteArrayList<>();
    final Set<String> acknowledgedIds = ConcurrentHashMap.newKeySet();

    private FakeElasticsearch(HttpServer server, Script script) {
        this.server = server;
        this.script = script;
        server.createContext("/_bulk", this::bulk);
        server.setExecutor(executor);
        server.start();
    }

    static FakeElasticsearch http(Script script) throws IOException {
        return new FakeElasticsearch(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
                script);
    }

    /** HTTPS with the key in a PKCS#12 keystore. */
    static FakeElasticsearch https(Path keystore, char[] password, Script script) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, password);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, password);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(factory.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new FakeElasticsearch(server, script);
    }

    String url() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    int requests() {
        return requests.get();
    }

    private void bulk(HttpExchange exchange) throws IOException {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        authorizationHeaders.add(auth == null ? "(none)" : auth);
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Reply reply = script.apply(requests.incrementAndGet());
        if (reply.body() != null || reply.status() != 200) {
            send(exchange, reply.status(), reply.body() == null ? "" : reply.body());
            return;
        }
        String[] lines = body.split("\n");
        StringBuilder items = new StringBuilder();
        boolean errors = false;
        for (int i = 0; i + 1 < lines.length; i += 2) {
            String id = Json.MAPPER.readTree(lines[i]).path("index").path("_id").asText();
            String index = Json.MAPPER.readTree(lines[i]).path("index").path("_index").asText();
            if (items.length() > 0) {
                items.append(',');
            }
            if (reply.itemsWith429().contains(i / 2)) {
                errors = true;
                items.append("{\"index\":{\"_index\":\"").append(index).append("\",\"_id\":\"").append(id)
                        .append("\",\"status\":429,\"error\":{\"type\":\"es_rejected_execution_exception\","
                                + "\"reason\":\"rejected execution of coordinating operation\"}}}");
            } else {
                acknowledgedIds.add(id);
                items.append("{\"index\":{\"_index\":\"").append(index).append("\",\"_id\":\"").append(id)
                        .append("\",\"_version\":1,\"result\":\"created\",\"status\":201}}");
            }
        }
        send(exchange, 200, "{\"took\":3,\"errors\":" + errors + ",\"items\":[" + items + "]}");
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

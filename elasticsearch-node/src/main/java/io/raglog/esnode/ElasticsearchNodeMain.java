package io.raglog.esnode;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.http.HttpServerTransport;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.Netty4Plugin;

/**
 * Runs one single-node Elasticsearch on loopback, for raglog's tests and its demo: a real node, with a real HTTP
 * port, in a JVM of its own (started by {@code io.raglog.sink.elasticsearch.ElasticsearchProcess}).
 *
 * <p>Usage: {@code ElasticsearchNodeMain --dir DIR [--http-port PORT]}. Everything the node keeps lives under DIR
 * ({@code data/}, {@code home/}, {@code logs/}), so a node started again on the same DIR finds its indices. Port 0
 * lets the system choose; the port actually bound is announced on stdout as
 * {@code raglog-elasticsearch-node ready http://127.0.0.1:PORT}. The node stops when its standard input closes,
 * which is how it notices that the JVM that started it is gone, even when that one was killed outright.
 */
public final class ElasticsearchNodeMain {

    public static final String READY_LINE_PREFIX = "raglog-elasticsearch-node ready ";

    private ElasticsearchNodeMain() {}

    public static void main(String[] args) throws Exception {
        // Elasticsearch's logging setup swaps System.out for a logger; the ready line must reach the real stdout.
        PrintStream stdout = System.out;
        Path dir = null;
        int httpPort = 0;
        for (int i = 0; i < args.length; i++) {
            if ("--dir".equals(args[i]) && i + 1 < args.length) {
                dir = Path.of(args[++i]).toAbsolutePath();
            } else if ("--http-port".equals(args[i]) && i + 1 < args.length) {
                httpPort = Integer.parseInt(args[++i]);
            } else {
                usage("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            usage("--dir is required");
        }

        Node node;
        try {
            node = start(dir, httpPort);
        } catch (Throwable e) {
            // The node's own threads would keep a half-started JVM alive; the launcher must see it exit instead.
            System.err.println("raglog-elasticsearch-node: could not start: " + e);
            e.printStackTrace();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(node), "raglog-es-node-shutdown"));
        int boundPort = node.injector().getInstance(HttpServerTransport.class).boundAddress().publishAddress()
                .getPort();
        stdout.println(READY_LINE_PREFIX + "http://127.0.0.1:" + boundPort);
        stdout.flush();

        awaitParentGone(System.in);
        System.exit(0);
    }

    private static Node start(Path dir, int httpPort) throws Exception {
        Path home = dir.resolve("home");
        Path config = home.resolve("config");
        Files.createDirectories(config);
        Files.createDirectories(home.resolve("plugins"));
        installLoggingConfig(config);

        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", dir.resolve("data").toString())
                .put("path.logs", dir.resolve("logs").toString())
                .put("cluster.name", "raglog-local")
                .put("node.name", "raglog-local")
                .put("network.host", "127.0.0.1")
                .put("http.port", Integer.toString(httpPort))
                .put("transport.port", "0")
                .put("discovery.type", "single-node")
                // A developer's nearly full disk must not turn the test indices read-only.
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                // The heap is small on purpose; the real-memory breaker would reject bulk requests under GC pressure.
                .put("indices.breaker.total.use_real_memory", false)
                .build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), config,
                () -> "raglog-local");
        // The layout's %node_name converter reads this; it must be set before the configuration is loaded.
        LogConfigurator.setNodeName("raglog-local");
        LogConfigurator.configure(environment);
        return new LocalNode(environment).start();
    }

    private static void installLoggingConfig(Path config) throws IOException {
        try (InputStream in = ElasticsearchNodeMain.class.getResourceAsStream("log4j2.properties")) {
            if (in == null) {
                throw new IOException("log4j2.properties is missing from the node's classpath");
            }
            Files.copy(in, config.resolve("log4j2.properties"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Blocks until the stream ends: the launcher never writes to it, it only holds it open while it lives. */
    private static void awaitParentGone(InputStream in) {
        try {
            while (in.read() != -1) {
                // nothing to read; only the end matters
            }
        } catch (IOException e) {
            // a broken pipe means the same thing as the end of the stream
        }
    }

    private static void closeQuietly(Node node) {
        try {
            node.close();
        } catch (IOException | RuntimeException e) {
            System.err.println("raglog-elasticsearch-node: error while closing: " + e);
        }
    }

    private static void usage(String problem) {
        System.err.println("raglog-elasticsearch-node: " + problem);
        System.err.println("usage: ElasticsearchNodeMain --dir DIR [--http-port PORT]");
        System.exit(2);
    }

    /** The public {@link Node} constructor accepts no plugin classes; the HTTP transport is one. */
    private static final class LocalNode extends Node {
        LocalNode(Environment environment) {
            super(environment, List.of(Netty4Plugin.class), true);
        }
    }
}

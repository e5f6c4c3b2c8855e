package io.raglog.esnode;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Elasticsearch in a JVM of its own, for the tests and {@code ./raglog demo --elasticsearch}: the
 * node's Lucene, Jackson and Netty never meet the job's classpath.
 *
 * <p>It runs {@link ElasticsearchNodeMain} from {@code elasticsearch-node/target/classes} and
 * {@code elasticsearch-node/target/lib} (built by Maven with the rest of the project), found from the working
 * directory or from where this class was loaded, so it works from a module directory (Maven's tests) and from the
 * repository root ({@code ./raglog}). System property {@value #NODE_HOME_PROPERTY} or environment variable
 * {@value #NODE_HOME_ENV} may point at that {@code target} directory instead.
 *
 * <p>All the node keeps is under the given directory; its output goes to {@code node.log} there. {@link #stop()}
 * and {@link #restart()} stop it and start it again on the same port and data, as an outage would. The node dies with
 * this JVM: a shutdown hook kills it, and the node itself exits when its standard input (held by this JVM) closes,
 * which covers a JVM killed outright.
 */
public final class ElasticsearchProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ElasticsearchProcess.class);

    public static final String NODE_HOME_PROPERTY = "raglog.elasticsearch.node.home";
    public static final String NODE_HOME_ENV = "RAGLOG_ES_NODE_HOME";
    /** The node's heap; 512 MB holds raglog's indices with room to spare. */
    public static final String HEAP_PROPERTY = "raglog.elasticsearch.node.heap";

    // by name and by a constant (inlined by the compiler): this JVM never loads the node's classes, only the forked
    // one does, with Elasticsearch's own jars beside them
    private static final String MAIN_CLASS = "io.raglog.esnode.ElasticsearchNodeMain";
    private static final String READY_LINE_PREFIX = ElasticsearchNodeMain.READY_LINE_PREFIX;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final List<String> classpath;
    private int port;
    private Process process;
    private Thread killOnExit;
    private String url;

    private ElasticsearchProcess(Path dir, List<String> classpath, int port) {
        this.dir = dir;
        this.classpath = classpath;
        this.port = port;
    }

    /** Starts a node on a free port with its data under {@code dir}; returns once the cluster is at least yellow. */
    public static ElasticsearchProcess start(Path dir) throws IOException {
        return start(dir, 0);
    }

    /** Starts a node on {@code httpPort} (0: a free one) with its data under {@code dir}. */
    public static ElasticsearchProcess start(Path dir, int httpPort) throws IOException {
        Files.createDirectories(dir);
        ElasticsearchProcess node = new ElasticsearchProcess(dir.toAbsolutePath(), nodeClasspath(), httpPort);
        node.launch();
        return node;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return url;
    }

    public int port() {
        return port;
    }

    public Path directory() {
        return dir;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops the node, keeping its port and data for {@link #restart()}. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy(); // SIGTERM: the node's shutdown hook closes it cleanly
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                LOG.warn("Elasticsearch node at {} did not stop within {}; killing it", url, STOP_TIMEOUT);
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        removeKillOnExit();
        process = null;
        LOG.info("Elasticsearch node at {} stopped", url);
    }

    /** Starts the node again on the same port and data directory. */
    public synchronized void restart() throws IOException {
        stop();
        launch();
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized void launch() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + System.getProperty(HEAP_PROPERTY, "512m"));
        command.add("-Xmx" + System.getProperty(HEAP_PROPERTY, "512m"));
        // C1 only: the node starts in about half the time, and test traffic never needs C2's code.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        command.add("-Djava.locale.providers=SPI,COMPAT");
        command.add("-Dlog4j2.disable.jmx=true");
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(MAIN_CLASS);
        command.add("--dir");
        command.add(dir.toString());
        command.add("--http-port");
        command.add(Integer.toString(port));

        Path log = dir.resolve("node.log");
        long started = System.nanoTime();
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Process launched = process;
        killOnExit = new Thread(launched::destroyForcibly, "raglog-elasticsearch-node-kill");
        Runtime.getRuntime().addShutdownHook(killOnExit);

        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread pump = new Thread(() -> pumpOutput(launched, log, ready), "raglog-elasticsearch-node-output");
        pump.setDaemon(true);
        pump.start();

        try {
            url = ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            port = URI.create(url).getPort();
            awaitYellow(url, started);
        } catch (TimeoutException | ExecutionException | IOException e) {
            stop();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException("the local Elasticsearch node did not start (" + cause.getMessage() + "); see "
                    + log, cause);
        } catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the local Elasticsearch node");
        }
        LOG.info("Elasticsearch {} ready in {} ms (data in {})", url,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), dir);
    }

    /** Copies the node's output to its log, watching for the ready line; drains it for the node's whole life. */
    private static void pumpOutput(Process node, Path log, CompletableFuture<String> ready) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                if (line.startsWith(READY_LINE_PREFIX)) {
                    ready.complete(line.substring(READY_LINE_PREFIX.length()).trim());
                }
                out.flush(); // a few lines a minute at most: the log is current when someone reads it
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IOException("the node's JVM exited before it was ready"));
    }

    private static void awaitYellow(String url, long startedNanos) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest health = HttpRequest.newBuilder(
                        URI.create(url + "/_cluster/health?wait_for_status=yellow&timeout=30s"))
                .timeout(Duration.ofSeconds(40)).GET().build();
        long deadline = startedNanos + START_TIMEOUT.toNanos();
        while (true) {
            try {
                HttpResponse<String> reply = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (reply.statusCode() == 200) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("cluster health " + reply.statusCode() + ": " + reply.body());
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
    }

    private void removeKillOnExit() {
        if (killOnExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(killOnExit);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down; the hook will run, which is fine
            }
            killOnExit = null;
        }
    }

    /** The node's classpath: {@code target/classes} and every jar in {@code target/lib}. */
    static List<String> nodeClasspath() {
        Path target = locateNodeTarget();
        List<String> entries = new ArrayList<>();
        entries.add(target.resolve("classes").toString());
        entries.add(target.resolve("lib").toString() + File.separator + "*");
        return entries;
    }

    static Path locateNodeTarget() {
        String configured = System.getProperty(NODE_HOME_PROPERTY, System.getenv(NODE_HOME_ENV));
        if (configured != null && !configured.isBlank()) {
            Path target = Path.of(configured).toAbsolutePath();
            if (!isBuiltNode(target)) {
                throw new IllegalStateException(NODE_HOME_PROPERTY + " / " + NODE_HOME_ENV + " = " + target
                        + " holds no built Elasticsearch node (classes/ and lib/)");
            }
            return target;
        }
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of(System.getProperty("user.dir")).toAbsolutePath());
        codeLocation().ifPresent(starts::add);
        return locateNodeTarget(starts);
    }

    /** Looks in each start directory and its parents for {@code elasticsearch-node/target}, built. */
    static Path locateNodeTarget(List<Path> starts) {
        for (Path start : starts) {
            for (Path d = start.toAbsolutePath(); d != null; d = d.getParent()) {
                Path target = d.resolve("elasticsearch-node").resolve("target");
                if (isBuiltNode(target)) {
                    return target;
                }
            }
        }
        throw new IllegalStateException("the local Elasticsearch node is not built (looked for "
                + "elasticsearch-node/target/{classes,lib} in and above " + starts + "); build it with "
                + "`mvn -pl elasticsearch-node -am package` from the repository root");
    }

    private static boolean isBuiltNode(Path target) {
        return Files.isDirectory(target.resolve("classes").resolve("io").resolve("raglog").resolve("esnode"))
                && Files.isDirectory(target.resolve("lib"));
    }

    private static Optional<Path> codeLocation() {
        try {
            var source = ElasticsearchProcess.class.getProtectionDomain().getCodeSource();
            return source == null ? Optional.empty()
                    : Optional.of(Path.of(source.getLocation().toURI()).toAbsolutePath());
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "local Elasticsearch " + (url == null ? "(not started)" : url) + " in " + dir;
    }
}

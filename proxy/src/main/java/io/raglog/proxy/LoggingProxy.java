package io.raglog.proxy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.raglog.proxy.http.AwsSigning;
import io.raglog.proxy.http.ProxyRuntime;
import io.raglog.proxy.http.ProxyServer;
import io.raglog.proxy.http.UpstreamPools;
import io.raglog.proxy.metrics.AdminServer;
import io.raglog.proxy.metrics.ProxyMetrics;
import io.raglog.proxy.record.CallEventFactory;
import io.raglog.proxy.record.RecordSink;
import io.raglog.proxy.record.Recorder;
import io.raglog.proxy.record.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logging proxy: a reverse proxy that forwards a pipeline's API calls unchanged (streamed replies as they arrive)
 * and records each call as a redacted CallEvent, to Kafka or a file, without ever holding a call up for its recording.
 * Start one with {@link #start(ProxyConfig)}; {@link #close()} stops it and logs its counters.
 */
public final class LoggingProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoggingProxy.class);

    /** How long {@link #close()} lets calls in flight (a long streamed reply) finish before cutting them. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final ProxyConfig config;
    private final EventLoopGroup group;
    private final UpstreamPools pools;
    private final Recorder recorder;
    private final ProxyMetrics metrics;
    private final ProxyServer server;
    private final AdminServer admin;
    private final AwsSigning signing;
    private boolean closed;

    private LoggingProxy(ProxyConfig config, EventLoopGroup group, UpstreamPools pools, Recorder recorder,
            ProxyMetrics metrics, ProxyServer server, AdminServer admin, AwsSigning signing) {
        this.config = config;
        this.group = group;
        this.pools = pools;
        this.recorder = recorder;
        this.metrics = metrics;
        this.server = server;
        this.admin = admin;
        this.signing = signing;
    }

    public static LoggingProxy start(ProxyConfig config) {
        ProxyMetrics metrics = new ProxyMetrics();
        RecordSink sink = config.sink().open(config.maxEventBytes());
        CallEventFactory events = new CallEventFactory(new Redactor(config.redaction()), config.defaultPipeline(),
                Math.max(config.maxRecordedBodyBytes(), 1) * 4, config.sessionHeader());
        Recorder recorder = new Recorder(events, sink, metrics, config.maxQueuedCalls(), config.maxQueuedBytes());
        UpstreamPools pools = new UpstreamPools(config.connectTimeout(), config.upstreamIdleTimeout(),
                config.upstreamCa());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(config.ioThreads(),
                new DefaultThreadFactory("raglog-proxy-io", true), NioIoHandler.newFactory());
        // Only a proxy with a route to re-sign holds AWS credentials at all.
        AwsSigning signing = config.routes().stream().anyMatch(r -> r.awsSigV4() != null)
                ? AwsSigning.create(config.awsCredentials()) : null;
        ProxyServer server = null;
        AdminServer admin = null;
        try {
            ProxyRuntime runtime = new ProxyRuntime(new Routes(config.routes()), pools, recorder, metrics,
                    config.maxRecordedBodyBytes(), signing, config.maxSignedBodyBytes());
            server = ProxyServer.bind(group, config.listen(), runtime);
            if (config.admin() != null) {
                admin = AdminServer.start(config.admin(), metrics);
            }
        } catch (InterruptedException | IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            recorder.close(Duration.ZERO);
            if (signing != null) {
                signing.close();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IOException io ? new UncheckedIOException("cannot start the proxy: " + e.getMessage(), io)
                    : new IllegalStateException("cannot start the proxy: " + e.getMessage(), e);
        }
        LoggingProxy proxy = new LoggingProxy(config, group, pools, recorder, metrics, server, admin, signing);
        LOG.info("raglog proxy listening on {}{}, recording to {}", server.address(),
                admin == null ? "" : " (metrics on http://" + hostPort(admin.address()) + "/metrics)",
                sink.describe());
        config.routes().forEach(r -> LOG.info("  route {}", r.describe()));
        for (Route r : config.routes()) {
            if (r.awsSigV4() != null && !r.https()) {
                LOG.warn("route {} is re-signed for AWS but its upstream is plain http: the proxy's access key id and"
                        + " session token would cross the network in the clear", r.match());
            }
        }
        if (signing != null) {
            signing.checkCredentialsInBackground();
        }
        return proxy;
    }

    /** Where clients connect, with the actual port when an ephemeral one was asked for. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** {@code http://host:port}: what a client's base URL starts with, a route prefix following. */
    public URI baseUri() {
        return URI.create("http://" + hostPort(address()));
    }

    /** The admin address ({@code /metrics}), or null when the config asked for none. */
    public InetSocketAddress adminAddress() {
        return admin == null ? null : admin.address();
    }

    public ProxyMetrics metrics() {
        return metrics;
    }

    public ProxyConfig config() {
        return config;
    }

    /**
     * Stops accepting, lets calls in flight finish (up to a few seconds), writes the queued recordings, closes the sink
     * and logs the counters.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.close();
        awaitCallsInFlight(DRAIN_TIMEOUT);
        pools.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        recorder.close();
        if (admin != null) {
            admin.close();
        }
        if (signing != null) {
            signing.close();
        }
        LOG.info("raglog proxy stopped: {}", metrics.snapshot().describe());
    }

    private void awaitCallsInFlight(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (metrics.inFlight() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}

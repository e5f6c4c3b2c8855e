package io.raglog.proxy;

import io.raglog.proxy.record.RedactionRules;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a {@link LoggingProxy} needs; build it with {@link #builder()}, which checks the required settings.
 *
 * @param listen where clients connect; port 0 for an ephemeral port (tests, benchmarks)
 * @param admin where {@code /metrics} is served; null for no admin port
 * @param defaultPipeline the pipeline of calls whose route and headers name none
 * @param maxRecordedBodyBytes each body is recorded up to this many bytes; the call always passes through whole
 * @param maxQueuedCalls recordings waiting for the sink, at most; beyond it they are dropped and counted
 * @param maxQueuedBytes the same bound in bytes, so a burst of large bodies cannot exhaust the heap
 * @param upstreamIdleTimeout pooled upstream connections idle this long are closed, before the upstream closes them
 *     under a request (uvicorn, used by vLLM and many self-hosted servers, drops idle connections after 5 s)
 * @param upstreamCa extra trusted certificates (PEM) for self-hosted https upstreams; null for the JDK's defaults
 * @param ioThreads event loop threads serving clients and upstreams
 * @param sessionHeader the request header whose value is copied into the call's {@code session} (lower case; null for
 *     none): how re-asks within a user's session are told apart from other users' questions. A header the redaction
 *     rules call secret is refused, since its value would be copied out of the redacted headers
 * @param maxSignedBodyBytes on a route the proxy re-signs for AWS the whole request body is held before it goes
 *     upstream (the signature covers its hash); a larger body is answered 413 and not forwarded
 * @param awsCredentials the credentials routes are re-signed with; null for the SDK's default chain (environment,
 *     profile, web identity, container and instance metadata), resolved per request
 */
public record ProxyConfig(
        InetSocketAddress listen,
        InetSocketAddress admin,
        List<Route> routes,
        String defaultPipeline,
        SinkSpec sink,
        RedactionRules redaction,
        int maxRecordedBodyBytes,
        int maxQueuedCalls,
        long maxQueuedBytes,
        Duration connectTimeout,
        Duration upstreamIdleTimeout,
        Path upstreamCa,
        int ioThreads,
        String sessionHeader,
        int maxSignedBodyBytes,
        AwsCredentialsProvider awsCredentials) {

    public static final String DEFAULT_PIPELINE = "default";
    public static final String DEFAULT_SESSION_HEADER = "x-session-id";
    public static final int DEFAULT_MAX_RECORDED_BODY_BYTES = 4 << 20;
    public static final int DEFAULT_MAX_SIGNED_BODY_BYTES = 16 << 20;
    public static final int DEFAULT_MAX_QUEUED_CALLS = 10_000;
    public static final long DEFAULT_MAX_QUEUED_BYTES = 256L << 20;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_UPSTREAM_IDLE_TIMEOUT = Duration.ofSeconds(4);

    public ProxyConfig {
        routes = List.copyOf(routes);
    }

    /** The largest event the body cap allows: two bodies plus room for URL and headers. */
    public int maxEventBytes() {
        return (int) Math.min(Integer.MAX_VALUE, 2L * maxRecordedBodyBytes + (1 << 20));
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.listen = listen;
        b.admin = admin;
        b.routes.addAll(routes);
        b.defaultPipeline = defaultPipeline;
        b.sink = sink;
        b.redaction = redaction;
        b.maxRecordedBodyBytes = maxRecordedBodyBytes;
        b.maxQueuedCalls = maxQueuedCalls;
        b.maxQueuedBytes = maxQueuedBytes;
        b.connectTimeout = connectTimeout;
        b.upstreamIdleTimeout = upstreamIdleTimeout;
        b.upstreamCa = upstreamCa;
        b.ioThreads = ioThreads;
        b.sessionHeader = sessionHeader;
        b.maxSignedBodyBytes = maxSignedBodyBytes;
        b.awsCredentials = awsCredentials;
        return b;
    }

    public static final class Builder {
        private InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 8080);
        private InetSocketAddress admin;
        private final List<Route> routes = new ArrayList<>();
        private String defaultPipeline = DEFAULT_PIPELINE;
        private SinkSpec sink;
        private RedactionRules redaction = RedactionRules.defaults();
        private int maxRecordedBodyBytes = DEFAULT_MAX_RECORDED_BODY_BYTES;
        private int maxQueuedCalls = DEFAULT_MAX_QUEUED_CALLS;
        private long maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration upstreamIdleTimeout = DEFAULT_UPSTREAM_IDLE_TIMEOUT;
        private Path upstreamCa;
        private int ioThreads = Runtime.getRuntime().availableProcessors();
        private String sessionHeader = DEFAULT_SESSION_HEADER;
        private int maxSignedBodyBytes = DEFAULT_MAX_SIGNED_BODY_BYTES;
        private AwsCredentialsProvider awsCredentials;

        private Builder() {}

        public Builder listen(InetSocketAddress address) {
            this.listen = address;
            return this;
        }

        /** Loopback, an ephemeral port: for tests and benchmarks. */
        public Builder listenOnEphemeralPort() {
            return listen(new InetSocketAddress("127.0.0.1", 0));
        }

        public Builder admin(InetSocketAddress address) {
            this.admin = address;
            return this;
        }

        public Builder route(Route route) {
            this.routes.add(route);
            return this;
        }

        public Builder routes(List<Route> routes) {
            this.routes.clear();
            this.routes.addAll(routes);
            return this;
        }

        public Builder defaultPipeline(String name) {
            this.defaultPipeline = name;
            return this;
        }

        public Builder sink(SinkSpec sink) {
            this.sink = sink;
            return this;
        }

        public Builder redaction(RedactionRules rules) {
            this.redaction = rules;
            return this;
        }

        public Builder maxRecordedBodyBytes(int bytes) {
            this.maxRecordedBodyBytes = bytes;
            return this;
        }

        public Builder maxQueuedCalls(int calls) {
            this.maxQueuedCalls = calls;
            return this;
        }

        public Builder maxQueuedBytes(long bytes) {
            this.maxQueuedBytes = bytes;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        public Builder upstreamIdleTimeout(Duration timeout) {
            this.upstreamIdleTimeout = timeout;
            return this;
        }

        public Builder upstreamCa(Path pem) {
            this.upstreamCa = pem;
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = threads;
            return this;
        }

        /** The session header's name, any case; null, blank or {@code off} for none. */
        public Builder sessionHeader(String name) {
            this.sessionHeader = name == null || name.isBlank() || name.strip().equalsIgnoreCase("off") ? null
                    : name.strip().toLowerCase(java.util.Locale.ROOT);
            return this;
        }

        public Builder maxSignedBodyBytes(int bytes) {
            this.maxSignedBodyBytes = bytes;
            return this;
        }

        /** The credentials AWS SigV4 routes are signed with (tests); by default the SDK's default chain. */
        public Builder awsCredentials(AwsCredentialsProvider provider) {
            this.awsCredentials = provider;
            return this;
        }

        public ProxyConfig build() {
            require(listen != null, "listen (the address clients connect to)");
            require(!routes.isEmpty(), "at least one route (e.g. /openai=https://api.openai.com)");
            require(sink != null, "a sink (kafka:BOOTSTRAP or file:PATH)");
            require(defaultPipeline != null && !defaultPipeline.isBlank(), "a default pipeline name");
            require(redaction != null, "redaction rules");
            require(maxRecordedBodyBytes >= 0, "maxRecordedBodyBytes >= 0");
            require(maxQueuedCalls > 0, "maxQueuedCalls > 0");
            require(maxQueuedBytes > 0, "maxQueuedBytes > 0");
            require(connectTimeout != null && !connectTimeout.isNegative(), "a connect timeout");
            require(upstreamIdleTimeout != null && !upstreamIdleTimeout.isNegative(), "an upstream idle timeout");
            require(ioThreads > 0, "ioThreads > 0");
            require(maxSignedBodyBytes >= 0, "maxSignedBodyBytes >= 0");
            if (sessionHeader != null && redaction.isSecretHeader(sessionHeader)) {
                // Copying it into the session field would carry a credential past redaction.
                throw new IllegalArgumentException("proxy config: the session header " + sessionHeader
                        + " is redacted as a secret; name a header that carries a session id, not a credential");
            }
            return new ProxyConfig(listen, admin, routes, defaultPipeline, sink, redaction, maxRecordedBodyBytes,
                    maxQueuedCalls, maxQueuedBytes, connectTimeout, upstreamIdleTimeout, upstreamCa, ioThreads,
                    sessionHeader, maxSignedBodyBytes, awsCredentials);
        }

        private static void require(boolean ok, String what) {
            if (!ok) {
                throw new IllegalArgumentException("proxy config: missing or invalid " + what);
            }
        }
    }
}

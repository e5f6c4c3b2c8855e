package io.raglog.proxy;

import io.raglog.proxy.record.RedactionRules;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code raglog proxy}: point a pipeline's base URLs at it and its API calls are recorded, unchanged for the pipeline.
 * Settings come from {@code --config proxy.yaml}, flags, or both (a flag wins over the file).
 */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = {"Run the logging proxy: forwards a pipeline's API calls unchanged and records each one as a"
                + " CallEvent (raglog.call/v1), secrets redacted, to Kafka (raglog.calls) or a JSONL file.",
            "Example: raglog proxy --route /openai=https://api.openai.com --route /cohere=https://api.cohere.com"
                + " --pipeline support-bot --sink kafka:localhost:9092, then OPENAI_BASE_URL=http://127.0.0.1:8080/openai/v1"})
public final class ProxyCommand implements Callable<Integer> {

    static final String DEFAULT_LISTEN = "127.0.0.1:8080";
    static final String DEFAULT_ADMIN = "127.0.0.1:9180";

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "proxy.yaml with listen, routes, sink, redact, limits.")
    Path configFile;

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Where clients connect (default " + DEFAULT_LISTEN
            + "; port 0 for any free port).")
    String listen;

    @Option(names = "--admin", paramLabel = "HOST:PORT|off",
            description = "Where /metrics (Prometheus) is served (default " + DEFAULT_ADMIN + ").")
    String admin;

    @Option(names = "--route", paramLabel = "PREFIX=URL|HOST=URL",
            description = "Map a path prefix (/openai=https://api.openai.com) or a Host to an upstream; repeatable."
                    + " Replaces the file's routes when given.")
    List<String> routes = new ArrayList<>();

    @Option(names = "--aws-sigv4", paramLabel = "ROUTE[=SERVICE:REGION]",
            description = "Re-sign the route named by its prefix or host (/bedrock) with AWS SigV4 and the proxy's own"
                    + " AWS credentials (default chain: environment, profile, web identity, container, instance"
                    + " metadata); the client's signature is dropped. Service and region are inferred from an"
                    + " upstream such as https://bedrock-runtime.us-east-1.amazonaws.com; repeatable.")
    List<String> awsSigV4 = new ArrayList<>();

    @Option(names = "--pipeline", paramLabel = "NAME",
            description = "Pipeline of calls whose route and x-raglog-pipeline header name none (default "
                    + ProxyConfig.DEFAULT_PIPELINE + ").")
    String pipeline;

    @Option(names = "--sink", paramLabel = "kafka:BOOTSTRAP|file:PATH", description = "Where the CallEvents go.")
    String sink;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Kafka topic (default raglog.calls).")
    String topic;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "A Kafka producer setting (e.g. security.protocol=SASL_SSL); repeatable.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    @Option(names = "--session-header", paramLabel = "NAME",
            description = "The request header copied into each call's session (default: x-session-id; off for none).")
    String sessionHeader;

    @Option(names = "--redact-header", paramLabel = "NAME", description = "Another header to redact; repeatable.")
    List<String> redactHeaders = new ArrayList<>();

    @Option(names = "--redact-query-param", paramLabel = "NAME",
            description = "Another query parameter to redact; repeatable.")
    List<String> redactQueryParams = new ArrayList<>();

    @Option(names = "--redact-body-field", paramLabel = "NAME|/POINTER",
            description = "A body field name (matched anywhere) or JSON pointer to redact; repeatable.")
    List<String> redactBodyFields = new ArrayList<>();

    @Option(names = "--max-recorded-body", paramLabel = "BYTES",
            description = "Record each body up to this size; calls always pass whole (default 4194304).")
    Integer maxRecordedBody;

    @Option(names = "--max-signed-body", paramLabel = "BYTES",
            description = "The largest request body a route re-signed for AWS takes; larger ones are answered 413"
                    + " (default 16777216).")
    Integer maxSignedBody;

    @Option(names = "--max-queued-calls", paramLabel = "N",
            description = "Recordings waiting for the sink before new ones are dropped (default 10000).")
    Integer maxQueuedCalls;

    @Option(names = "--upstream-ca", paramLabel = "PEM", description = "Extra CA certificates for https upstreams.")
    Path upstreamCa;

    public static void main(String[] args) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            // Run on its own, the proxy logs like ./raglog does; under ./raglog the job's configuration applies.
            System.setProperty("log4j2.configurationFile", "raglog-proxy-log4j2.properties");
        }
        System.exit(new CommandLine(new ProxyCommand()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        ProxyConfig config = config();
        LoggingProxy proxy = LoggingProxy.start(config);
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            // Also printed, not only logged: the logging system may already be shutting down in its own hook.
            out.println("raglog proxy stopped: " + proxy.metrics().snapshot().describe());
            out.flush();
            stopped.countDown();
        }, "raglog-proxy-shutdown"));
        out.println("raglog proxy on " + proxy.baseUri() + (proxy.adminAddress() == null ? ""
                : ", metrics on http://" + proxy.adminAddress().getHostString() + ":" + proxy.adminAddress().getPort()
                        + "/metrics"));
        for (Route r : config.routes()) {
            out.println("  " + (r.pathPrefix() != null ? proxy.baseUri() + r.pathPrefix() : "Host " + r.host())
                    + " -> " + r.upstream() + (r.awsSigV4() == null ? ""
                            : " (re-signed with AWS SigV4 for " + r.awsSigV4().describe() + ")"));
        }
        out.println("Ctrl-C to stop.");
        out.flush();
        stopped.await();
        return 0;
    }

    /** The file's settings, then the flags over them. */
    ProxyConfig config() {
        ProxyFile file = configFile == null ? null : ProxyFile.read(configFile);
        ProxyConfig.Builder b = ProxyConfig.builder();

        b.listen(HostPort.parse(first(listen, file == null ? null : file.listen(), DEFAULT_LISTEN), "127.0.0.1"));
        InetSocketAddress adminAddress = adminAddress(first(admin, file == null ? null : file.admin(), DEFAULT_ADMIN));
        b.admin(adminAddress);
        b.defaultPipeline(first(pipeline, file == null ? null : file.pipeline(), ProxyConfig.DEFAULT_PIPELINE));

        List<Route> routeList = new ArrayList<>();
        if (!routes.isEmpty()) {
            routes.forEach(r -> routeList.add(Route.parse(r)));
        } else if (file != null && file.routes() != null) {
            file.routes().forEach(r -> routeList.add(r.toRoute()));
        }
        for (String spec : awsSigV4) {
            signRoute(routeList, spec);
        }
        b.routes(routeList);

        SinkSpec sinkSpec = sink != null ? SinkSpec.parse(sink)
                : file != null && file.sink() != null ? file.sink().toSpec() : null;
        if (sinkSpec instanceof SinkSpec.Kafka kafka && (topic != null || !kafkaProperties.isEmpty())) {
            Map<String, String> props = new LinkedHashMap<>(kafka.properties());
            props.putAll(kafkaProperties);
            sinkSpec = new SinkSpec.Kafka(kafka.bootstrap(), topic != null ? topic : kafka.topic(), props);
        }
        b.sink(sinkSpec);

        List<String> headers = new ArrayList<>(redactHeaders);
        List<String> params = new ArrayList<>(redactQueryParams);
        List<String> bodies = new ArrayList<>(redactBodyFields);
        if (file != null && file.redact() != null) {
            addAll(headers, file.redact().headers());
            addAll(params, file.redact().queryParams());
            addAll(bodies, file.redact().bodyFields());
        }
        b.redaction(RedactionRules.withAdditions(headers, params, bodies));
        b.sessionHeader(first(sessionHeader, file == null ? null : file.sessionHeader(),
                ProxyConfig.DEFAULT_SESSION_HEADER));

        ProxyFile.LimitsEntry limits = file == null ? null : file.limits();
        if (maxRecordedBody != null) {
            b.maxRecordedBodyBytes(maxRecordedBody);
        } else if (limits != null && limits.maxRecordedBodyBytes() != null) {
            b.maxRecordedBodyBytes(limits.maxRecordedBodyBytes());
        }
        if (maxSignedBody != null) {
            b.maxSignedBodyBytes(maxSignedBody);
        } else if (limits != null && limits.maxSignedBodyBytes() != null) {
            b.maxSignedBodyBytes(limits.maxSignedBodyBytes());
        }
        if (maxQueuedCalls != null) {
            b.maxQueuedCalls(maxQueuedCalls);
        } else if (limits != null && limits.maxQueuedCalls() != null) {
            b.maxQueuedCalls(limits.maxQueuedCalls());
        }
        if (limits != null && limits.maxQueuedBytes() != null) {
            b.maxQueuedBytes(limits.maxQueuedBytes());
        }
        if (file != null && file.connectTimeoutMs() != null) {
            b.connectTimeout(Duration.ofMillis(file.connectTimeoutMs()));
        }
        if (file != null && file.upstreamIdleTimeoutMs() != null) {
            b.upstreamIdleTimeout(Duration.ofMillis(file.upstreamIdleTimeoutMs()));
        }
        if (upstreamCa != null) {
            b.upstreamCa(upstreamCa);
        } else if (file != null && file.upstreamCa() != null) {
            b.upstreamCa(Path.of(file.upstreamCa()));
        }
        return b.build();
    }

    /** {@code --aws-sigv4 /bedrock} or {@code --aws-sigv4 /kb=bedrock:eu-west-1}: marks a route in effect signed. */
    private static void signRoute(List<Route> routes, String spec) {
        int eq = spec.indexOf('=');
        String name = (eq < 0 ? spec : spec.substring(0, eq)).strip();
        String service = null;
        String region = null;
        if (eq >= 0) {
            String[] parts = spec.substring(eq + 1).split(":", -1);
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new IllegalArgumentException("--aws-sigv4 is ROUTE or ROUTE=SERVICE:REGION, e.g."
                        + " /bedrock=bedrock:us-east-1; got '" + spec + "'");
            }
            service = parts[0];
            region = parts[1];
        }
        // named as in --route: a prefix as written (without a trailing slash), a host in any case
        String match = !name.startsWith("/") ? name.toLowerCase(Locale.ROOT)
                : name.length() > 1 && name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        for (int i = 0; i < routes.size(); i++) {
            if (routes.get(i).match().equals(match)) {
                routes.set(i, routes.get(i).signedWithAwsSigV4(service, region));
                return;
            }
        }
        throw new IllegalArgumentException("--aws-sigv4 " + name + " names no route (routes: "
                + String.join(", ", routes.stream().map(Route::match).toList()) + ")");
    }

    private static InetSocketAddress adminAddress(String spec) {
        return spec.equalsIgnoreCase("off") ? null : HostPort.parse(spec, "127.0.0.1");
    }

    private static String first(String flag, String fromFile, String fallback) {
        return flag != null ? flag : fromFile != null ? fromFile : fallback;
    }

    private static void addAll(List<String> to, List<String> from) {
        if (from != null) {
            to.addAll(from);
        }
    }
}

package io.raglog.sink.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.raglog.testing.LogCapture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials, TLS and whole-request retries, through real Flink jobs and real loopback sockets, against a stand-in
 * that can refuse credentials and present a certificate (the open-source node used elsewhere has no security).
 */
class ElasticsearchSinkSecurityTest {

    private static final String API_KEY = "cmFnbG9nLXdyaXRlcjpzM2NyZXQtYXBpLWtleS12YWx1ZQ==";
    private static final String PASSWORD = "Pa55-never-in-a-log";
    private static final char[] KEYSTORE_PASSWORD = "changeit".toCharArray();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path certificates;

    private static Path keystore;
    private static Path caCertificate;

    @BeforeAll
    static void makeAServerCertificateForLoopback() throws Exception {
        keystore = certificates.resolve("elasticsearch.p12");
        caCertificate = certificates.resolve("http_ca.crt");
        keytool("-genkeypair", "-alias", "es", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-validity", "2",
                "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", new String(KEYSTORE_PASSWORD), "-keypass", new String(KEYSTORE_PASSWORD));
        keytool("-exportcert", "-rfc", "-alias", "es", "-keystore", keystore.toString(),
                "-storepass", new String(KEYSTORE_PASSWORD), "-file", caCertificate.toString());
    }

    @Test
    void shouldSendTheApiKeyOnEveryRequestAndKeepItOutOfTheLogs() throws Exception {
        try (FakeElasticsearch es = FakeElasticsearch.http(n -> FakeElasticsearch.Reply.ok());
                LogCapture logs = new LogCapture()) {
            ElasticsearchConnection connection = ElasticsearchConnection.builder().setHosts(es.url())
                    .setApiKey(API_KEY).build();

            write(connection, 120);

            assertThat(es.acknowledgedIds).hasSize(120);
            assertThat(es.authorizationHeaders).isNotEmpty().allMatch(("ApiKey " + API_KEY)::equals);
            assertThat(logs.text()).contains("elasticsearch sink security test").doesNotContain(API_KEY);
        }
    }

    @Test
    void shouldFailClearlyWhenElasticsearchRefusesTheCredentialsWithoutRevealingThem() throws Exception {
        String refusal = "{\"error\":{\"root_cause\":[{\"type\":\"security_exception\",\"reason\":\"unable to "
                + "authenticate user [raglog_writer] for REST request [/_bulk]\"}],\"type\":\"security_exception\","
                + "\"reason\":\"unable to authenticate user [raglog_writer] for REST request [/_bulk]\"},"
                + "\"status\":401}";
        String basicToken = Base64.getEncoder()
                .encodeToString(("raglog_writer:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        try (FakeElasticsearch es = FakeElasticsearch.http(n -> FakeElasticsearch.Reply.status(401, refusal));
                LogCapture logs = new LogCapture()) {
            ElasticsearchConnection connection = ElasticsearchConnection.builder().setHosts(es.url())
                    .setBasicAuth("raglog_writer", PASSWORD).build();

            Throwable failure = catchThrowable(() -> write(connection, 10));

            assertThat(ExceptionUtils.findThrowable(failure, ElasticsearchSinkException.class)).get()
                    .extracting(Throwable::getMessage).asString()
                    .contains("refused raglog's credentials (HTTP 401: security_exception")
                    .contains("unable to authenticate user [raglog_writer]");
            assertThat(es.authorizationHeaders).first().isEqualTo("Basic " + basicToken);
            String everything = ExceptionUtils.stringifyException(failure) + logs.text();
            assertThat(everything).doesNotContain(PASSWORD).doesNotContain(basicToken);
        }
    }

    @Test
    void shouldRetryBusyAndUnavailableRepliesUntilEveryDocumentIsWritten() throws Exception {
        FakeElasticsearch.Script flaky = n -> {
            switch (n) {
                case 1: return FakeElasticsearch.Reply.status(503, "{\"error\":{\"type\":\"cluster_block_exception\","
                        + "\"reason\":\"blocked by: [SERVICE_UNAVAILABLE/1/state not recovered]\"},\"status\":503}");
                case 2: return FakeElasticsearch.Reply.status(429, "");
                case 3: return FakeElasticsearch.Reply.itemsRejectedAt(Set.of(0, 1, 2));
                default: return FakeElasticsearch.Reply.ok();
            }
        };
        try (FakeElasticsearch es = FakeElasticsearch.http(flaky)) {
            write(ElasticsearchConnection.builder().setHosts(es.url()).build(), 40);

            assertThat(es.acknowledgedIds).hasSize(40);
            assertThat(es.requests()).isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void shouldWriteOverTlsToAClusterWhoseCaCertificateIsGiven() throws Exception {
        try (FakeElasticsearch es = FakeElasticsearch.https(keystore, KEYSTORE_PASSWORD,
                n -> FakeElasticsearch.Reply.ok())) {
            ElasticsearchConnection connection = ElasticsearchConnection.builder().setHosts(es.url())
                    .setCaCertificate(caCertificate).setApiKey(API_KEY).build();

            write(connection, 30);

            assertThat(es.url()).startsWith("https://");
            assertThat(es.acknowledgedIds).hasSize(30);
        }
    }

    @Test
    void shouldFailClearlyOnACertificateThatNothingVouchesFor() throws Exception {
        try (FakeElasticsearch es = FakeElasticsearch.https(keystore, KEYSTORE_PASSWORD,
                n -> FakeElasticsearch.Reply.ok())) {
            ElasticsearchConnection jvmTrustOnly = ElasticsearchConnection.builder().setHosts(es.url()).build();

            Throwable failure = catchThrowable(() -> write(jvmTrustOnly, 5));

            assertThat(ExceptionUtils.findThrowable(failure, ElasticsearchSinkException.class)).get()
                    .extracting(Throwable::getMessage).asString()
                    .contains("TLS certificate of Elasticsearch at " + es.url() + " is not trusted")
                    .contains("CA certificate");
            assertThat(es.acknowledgedIds).isEmpty();
        }
    }

    private static void write(ElasticsearchConnection connection, int runs) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromData(TestRun.runs(runs, "security")).sinkTo(ElasticsearchSink.<TestRun>builder()
                .setConnection(connection)
                .setEmitter(ElasticsearchEmitter.json("raglog-faults", r -> r.runId))
                .setMaxBatchSize(25)
                .setMaxTimeInBuffer(Duration.ofMillis(50))
                .setBackoff(new Backoff(Duration.ofMillis(10), Duration.ofMillis(100)))
                .build());
        env.execute("elasticsearch sink security test");
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as("keytool %s: %s", command.stream().skip(1).limit(1)
                .collect(Collectors.joining()), output).isZero();
    }
}

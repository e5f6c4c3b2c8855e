package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.proxy.FakeUpstream.Reply;
import io.raglog.schemas.CallEvent;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosted vendors are https: the proxy speaks TLS to them, verifying the certificate and the host name, while the
 * client talks plain HTTP to the proxy next to it. The upstream's certificate is made here with the JDK's keytool.
 */
class TlsUpstreamTest {

    @TempDir
    static Path dir;

    static Path keyStore;
    static Path caPem;

    @BeforeAll
    static void makeCertificate() throws Exception {
        keyStore = dir.resolve("upstream.p12");
        caPem = dir.resolve("upstream-ca.pem");
        keytool("-genkeypair", "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
                "-keypass", "changeit");
        keytool("-exportcert", "-rfc", "-alias", "upstream", "-keystore", keyStore.toString(),
                "-storepass", "changeit", "-file", caPem.toString());
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }

    private static SSLContext serverTls() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    @Test
    void shouldForwardToAnHttpsUpstreamItTrustsAndRecordTheHttpsUrl() throws Exception {
        try (FakeUpstream upstream = new FakeUpstream(serverTls())
                .on("/v2/rerank", Reply.json(200, Wire.cohereRerankResponse()))) {
            Path file = dir.resolve("tls-calls.jsonl");
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/cohere", "https://localhost:" + upstream.port()))
                    .sink(SinkSpec.file(file))
                    .upstreamCa(caPem)
                    .build())) {
                HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        proxy.baseUri().resolve("/cohere/v2/rerank"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "bearer " + FakeSecrets.COHERE)
                        .POST(HttpRequest.BodyPublishers.ofString(Wire.cohereRerankRequest())).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).isEqualTo(Wire.cohereRerankResponse());
                assertThat(upstream.last().header("Host")).isEqualTo("localhost:" + upstream.port());
                CallEvent call = new CallLog(file).awaitEvents(1).get(0);
                assertThat(call.request().url()).isEqualTo("https://localhost:" + upstream.port() + "/v2/rerank");
            }
        }
    }

    @Test
    void shouldRefuseAnUpstreamWhoseCertificateItDoesNotTrust() throws Exception {
        try (FakeUpstream upstream = new FakeUpstream(serverTls())
                .on("/v2/rerank", Reply.json(200, Wire.cohereRerankResponse()))) {
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/cohere", "https://localhost:" + upstream.port()))
                    .sink(SinkSpec.file(dir.resolve("untrusted.jsonl")))
                    .build())) {
                HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        proxy.baseUri().resolve("/cohere/v2/rerank"))
                        .POST(HttpRequest.BodyPublishers.ofString(Wire.cohereRerankRequest())).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).isEqualTo(502);
                assertThat(upstream.received()).as("nothing reached an upstream the proxy could not verify").isEmpty();
            }
        }
    }
}

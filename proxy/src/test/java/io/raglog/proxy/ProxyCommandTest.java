package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProxyCommandTest {

    @TempDir
    Path dir;

    private static ProxyConfig parse(String... args) {
        ProxyCommand command = new ProxyCommand();
        new CommandLine(command).parseArgs(args);
        return command.config();
    }

    @Test
    void shouldBuildTheCommonCaseFromFlags() {
        ProxyConfig config = parse("--listen", "127.0.0.1:8080", "--route", "/openai=https://api.openai.com",
                "--route", "/cohere=https://api.cohere.com", "--pipeline", "support-bot",
                "--sink", "kafka:localhost:9092", "--redact-body-field", "api_key", "--redact-body-field", "/auth/pw");

        assertThat(config.listen().getPort()).isEqualTo(8080);
        assertThat(config.admin().getPort()).isEqualTo(9180);
        assertThat(config.routes()).extracting(Route::pathPrefix).containsExactly("/openai", "/cohere");
        assertThat(config.defaultPipeline()).isEqualTo("support-bot");
        assertThat(config.sink()).isEqualTo(new SinkSpec.Kafka("localhost:9092", "raglog.calls", Map.of()));
        assertThat(config.redaction().bodyPointers()).containsExactly("/auth/pw");
        assertThat(config.redaction().isSecretHeader("authorization")).isTrue();
    }

    @Test
    void shouldReadProxyYamlAndLetFlagsWin() throws Exception {
        Path yaml = dir.resolve("proxy.yaml");
        Files.writeString(yaml, """
                listen: 0.0.0.0:9000
                admin: "off"
                pipeline: support-bot
                routes:
                  - {prefix: /openai, upstream: https://api.openai.com}
                  - {host: qdrant.internal, upstream: http://qdrant:6333, pipeline: search-svc}
                sink:
                  kafka: {bootstrap: "kafka:9092", topic: calls, properties: {security.protocol: SASL_SSL}}
                redact:
                  headers: [x-internal-auth]
                  query_params: [sas]
                  body_fields: [session_blob, /credentials/password]
                limits: {max_recorded_body_bytes: 1048576, max_queued_calls: 500}
                upstream_idle_timeout_ms: 2500
                """);

        ProxyConfig fromFile = parse("--config", yaml.toString());
        assertThat(fromFile.listen().getPort()).isEqualTo(9000);
        assertThat(fromFile.admin()).isNull();
        assertThat(fromFile.routes()).hasSize(2);
        assertThat(fromFile.routes().get(1).host()).isEqualTo("qdrant.internal");
        assertThat(fromFile.routes().get(1).pipeline()).isEqualTo("search-svc");
        assertThat(fromFile.sink()).isEqualTo(new SinkSpec.Kafka("kafka:9092", "calls",
                Map.of("security.protocol", "SASL_SSL")));
        assertThat(fromFile.redaction().isSecretHeader("x-internal-auth")).isTrue();
        assertThat(fromFile.redaction().isSecretQueryParam("sas")).isTrue();
        assertThat(fromFile.redaction().isSecretBodyField("sessionBlob")).isTrue();
        assertThat(fromFile.maxRecordedBodyBytes()).isEqualTo(1 << 20);
        assertThat(fromFile.maxQueuedCalls()).isEqualTo(500);
        assertThat(fromFile.upstreamIdleTimeout().toMillis()).isEqualTo(2500);

        ProxyConfig overridden = parse("--config", yaml.toString(), "--listen", "127.0.0.1:0",
                "--sink", "file:" + dir.resolve("calls.jsonl"), "--route", "/cohere=https://api.cohere.com");
        assertThat(overridden.listen().getPort()).isZero();
        assertThat(overridden.sink()).isEqualTo(SinkSpec.file(dir.resolve("calls.jsonl")));
        assertThat(overridden.routes()).extracting(Route::pathPrefix).containsExactly("/cohere");
        assertThat(overridden.defaultPipeline()).isEqualTo("support-bot");
    }

    @Test
    void shouldAcceptTheShippedExampleConfig() {
        ProxyConfig config = parse("--config", "proxy.example.yaml");
        assertThat(config.routes()).extracting(Route::pathPrefix)
                .containsExactly("/openai", "/anthropic", "/cohere", "/qdrant");
        assertThat(config.sink()).isInstanceOf(SinkSpec.Kafka.class);
        assertThat(config.redaction().isSecretBodyField("api_key")).isTrue();
    }

    @Test
    void shouldAcceptTheShippedExamplesAwsRoutesOnceUncommented() throws Exception {
        Path yaml = dir.resolve("example-aws.yaml");
        Files.writeString(yaml, Files.readString(Path.of("proxy.example.yaml"))
                .replace("  # - {prefix: /bedrock", "  - {prefix: /bedrock"));
        ProxyConfig config = parse("--config", yaml.toString());
        assertThat(config.routes()).extracting(Route::pathPrefix)
                .containsExactly("/openai", "/anthropic", "/cohere", "/qdrant", "/bedrock", "/bedrock-agent");
        assertThat(config.routes().subList(4, 6)).extracting(Route::awsSigV4)
                .containsOnly(new AwsSigV4("bedrock", "us-east-1"));
        assertThat(config.maxSignedBodyBytes()).isEqualTo(16 << 20);
    }

    @Test
    void shouldRejectAMisspeltKeyRatherThanIgnoreIt() throws Exception {
        Path yaml = dir.resolve("proxy.yaml");
        Files.writeString(yaml, """
                routes: [{prefix: /openai, upstream: https://api.openai.com}]
                sink: {file: calls.jsonl}
                redcat: {headers: [x-internal-auth]}
                """);
        assertThatThrownBy(() -> parse("--config", yaml.toString())).hasMessageContaining("redcat");
    }

    @Test
    void shouldSayWhatIsMissing() {
        assertThatThrownBy(() -> parse("--route", "/openai=https://api.openai.com"))
                .hasMessageContaining("a sink (kafka:BOOTSTRAP or file:PATH)");
        assertThatThrownBy(() -> parse("--sink", "file:x.jsonl")).hasMessageContaining("at least one route");
        assertThatThrownBy(() -> parse("--sink", "s3://bucket", "--route", "/a=http://a"))
                .hasMessageContaining("kafka:BOOTSTRAP or file:PATH");
    }

    @Test
    void shouldTakeTheSessionHeaderFromFlagOrFileAndRefuseACredential() throws Exception {
        String[] common = {"--route", "/openai=https://api.openai.com", "--sink", "file:x.jsonl"};
        assertThat(parse(common).sessionHeader()).isEqualTo(ProxyConfig.DEFAULT_SESSION_HEADER);
        assertThat(parse(append(common, "--session-header", "X-Conversation-Id")).sessionHeader())
                .isEqualTo("x-conversation-id");
        assertThat(parse(append(common, "--session-header", "off")).sessionHeader()).isNull();
        Path yaml = dir.resolve("session.yaml");
        Files.writeString(yaml, """
                routes: [{prefix: /openai, upstream: https://api.openai.com}]
                sink: {file: calls.jsonl}
                session_header: x-chat-session
                """);
        assertThat(parse("--config", yaml.toString()).sessionHeader()).isEqualTo("x-chat-session");

        assertThatThrownBy(() -> parse(append(common, "--session-header", "Authorization")))
                .hasMessageContaining("session header authorization is redacted as a secret");
        assertThatThrownBy(() -> parse(append(common, "--session-header", "x-internal-auth", "--redact-header",
                "x-internal-auth"))).hasMessageContaining("redacted as a secret");
    }

    private static String[] append(String[] head, String... tail) {
        String[] out = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }

    @Test
    void shouldReadWhichRoutesAreReSignedForAwsFromProxyYaml() throws Exception {
        Path yaml = dir.resolve("bedrock.yaml");
        Files.writeString(yaml, """
                routes:
                  - {prefix: /bedrock, upstream: https://bedrock-runtime.us-east-1.amazonaws.com, aws_sigv4: true}
                  - {prefix: /kb, upstream: https://bedrock-agent-runtime.eu-west-1.amazonaws.com,
                     aws_sigv4: {region: eu-west-1}}
                  - prefix: /vpce
                    upstream: https://vpce-0a1b.bedrock-agent-runtime.us-west-2.vpce.amazonaws.com
                    aws_sigv4: {service: bedrock, region: us-west-2}
                  - {prefix: /openai, upstream: https://api.openai.com, aws_sigv4: false}
                  - {prefix: /cohere, upstream: https://api.cohere.com}
                sink: {file: calls.jsonl}
                limits: {max_signed_body_bytes: 2097152}
                """);

        ProxyConfig config = parse("--config", yaml.toString());
        assertThat(config.routes()).extracting(Route::awsSigV4).containsExactly(
                new AwsSigV4("bedrock", "us-east-1"), new AwsSigV4("bedrock", "eu-west-1"),
                new AwsSigV4("bedrock", "us-west-2"), null, null);
        assertThat(config.maxSignedBodyBytes()).isEqualTo(2 << 20);
        assertThat(parse("--config", yaml.toString(), "--max-signed-body", "1000").maxSignedBodyBytes())
                .isEqualTo(1000);
        assertThat(parse("--route", "/openai=https://api.openai.com", "--sink", "file:x.jsonl").maxSignedBodyBytes())
                .isEqualTo(ProxyConfig.DEFAULT_MAX_SIGNED_BODY_BYTES);
    }

    @Test
    void shouldRefuseAnAwsRouteWhoseSigningCannotBeInferredOrIsMisspelt() throws Exception {
        Path local = dir.resolve("local.yaml");
        Files.writeString(local, """
                routes: [{prefix: /bedrock, upstream: "http://localstack:4566", aws_sigv4: true}]
                sink: {file: calls.jsonl}
                """);
        assertThatThrownBy(() -> parse("--config", local.toString()))
                .hasMessageContaining("cannot infer the AWS SigV4 service and region of the route to localstack");
        Path misspelt = dir.resolve("misspelt.yaml");
        Files.writeString(misspelt, """
                routes: [{prefix: /kb, upstream: "https://kb.internal", aws_sigv4: {service: bedrock, regoin: x}}]
                sink: {file: calls.jsonl}
                """);
        assertThatThrownBy(() -> parse("--config", misspelt.toString())).hasMessageContaining("regoin");
    }

    @Test
    void shouldMarkRoutesReSignedForAwsFromTheCommandLine() throws Exception {
        ProxyConfig config = parse("--route", "/bedrock=https://bedrock-runtime.us-east-1.amazonaws.com",
                "--route", "/kb=https://vpce-0a1b.bedrock-agent-runtime.us-west-2.vpce.amazonaws.com",
                "--route", "bedrock.internal=https://bedrock-runtime.eu-central-1.amazonaws.com",
                "--route", "/openai=https://api.openai.com",
                "--aws-sigv4", "/bedrock/", "--aws-sigv4", "/kb=bedrock:us-west-2", "--aws-sigv4", "Bedrock.Internal",
                "--sink", "file:x.jsonl");
        assertThat(config.routes()).extracting(Route::awsSigV4).containsExactly(
                new AwsSigV4("bedrock", "us-east-1"), new AwsSigV4("bedrock", "us-west-2"),
                new AwsSigV4("bedrock", "eu-central-1"), null);

        Path yaml = dir.resolve("file-routes.yaml");
        Files.writeString(yaml, """
                routes: [{prefix: /bedrock, upstream: "https://bedrock-runtime.us-east-1.amazonaws.com"}]
                sink: {file: calls.jsonl}
                """);
        assertThat(parse("--config", yaml.toString(), "--aws-sigv4", "/bedrock").routes().get(0).awsSigV4())
                .as("the flag marks a route from the file too").isEqualTo(new AwsSigV4("bedrock", "us-east-1"));

        String[] common = {"--route", "/bedrock=http://127.0.0.1:4566", "--sink", "file:x.jsonl"};
        assertThatThrownBy(() -> parse(append(common, "--aws-sigv4", "/bedrock")))
                .hasMessageContaining("cannot infer the AWS SigV4 service and region");
        assertThatThrownBy(() -> parse(append(common, "--aws-sigv4", "/nowhere")))
                .hasMessageContaining("--aws-sigv4 /nowhere names no route (routes: /bedrock)");
        assertThatThrownBy(() -> parse(append(common, "--aws-sigv4", "/bedrock=us-east-1")))
                .hasMessageContaining("ROUTE=SERVICE:REGION");
    }

    @Test
    void shouldDescribeItselfInHelp() {
        StringWriter out = new StringWriter();
        new CommandLine(new ProxyCommand()).setOut(new PrintWriter(out)).execute("--help");
        assertThat(out.toString()).contains("--route", "--sink", "--config", "--pipeline", "--listen", "--aws-sigv4",
                "--max-signed-body");
    }
}

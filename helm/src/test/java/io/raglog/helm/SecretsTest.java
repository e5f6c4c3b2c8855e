package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** API keys and passwords reach the pods only from Secrets the operator of the cluster created: never inline. */
class SecretsTest {

    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(PASSWORD|SECRET|API_KEY|TOKEN|ACCESS_KEY).*");

    /** Every credential the chart knows, each from its own Secret. */
    private static final Map<String, String> ALL_SECRETS = values(
            "proxy.enabled", "true",
            "raglog.kafka.security.protocol", "SASL_SSL",
            "raglog.kafka.security.sasl.passwordSecret.name", "kafka-credentials",
            "raglog.kafka.security.tls.caSecret.name", "kafka-ca",
            "raglog.elasticsearch.enabled", "true",
            "raglog.elasticsearch.auth.apiKeySecret.name", "es-credentials",
            "raglog.elasticsearch.caSecret.name", "es-ca",
            "raglog.llm.provider", "openai",
            "raglog.llm.model", "gpt-4o-mini",
            "raglog.llm.apiKeySecret.name", "openai-credentials",
            "job.s3.credentials.secretName", "s3-credentials");

    @Test
    void shouldPassEveryCredentialAsASecretReference() {
        Rendered r = Chart.render(ALL_SECRETS);

        assertThat(r.ofKind("Secret")).as("the chart creates no Secret: it only refers to them").isEmpty();
        JsonNode env = r.flinkContainer().path("env");
        assertThat(secretRef(env, "RAGLOG_KAFKA_SASL_PASSWORD")).isEqualTo("kafka-credentials/password");
        assertThat(secretRef(env, "RAGLOG_ES_API_KEY")).isEqualTo("es-credentials/api-key");
        assertThat(secretRef(env, "AWS_ACCESS_KEY_ID")).isEqualTo("s3-credentials/access-key-id");
        assertThat(secretRef(env, "AWS_SECRET_ACCESS_KEY")).isEqualTo("s3-credentials/secret-access-key");
        JsonNode proxyEnv = proxyContainer(r).path("env");
        assertThat(secretRef(proxyEnv, "RAGLOG_KAFKA_SASL_PASSWORD")).isEqualTo("kafka-credentials/password");
    }

    @Test
    void shouldMountTheLlmKeyAsAFileThatRaglogYamlNames() {
        Rendered r = Chart.render(ALL_SECRETS);

        JsonNode llm = r.raglogYaml().path("llm");
        assertThat(llm.path("api_key_file").asText()).isEqualTo("/etc/raglog/llm/api-key");
        JsonNode volumes = r.flinkDeployment().path("spec").path("podTemplate").path("spec").path("volumes");
        assertThat(volumes).anySatisfy(v -> {
            assertThat(v.path("secret").path("secretName").asText()).isEqualTo("openai-credentials");
            assertThat(v.path("secret").path("items").get(0).path("path").asText()).isEqualTo("api-key");
        });
        assertThat(r.flinkContainer().path("volumeMounts"))
                .anySatisfy(m -> assertThat(m.path("mountPath").asText()).isEqualTo("/etc/raglog/llm"));
    }

    @Test
    void shouldNameTheVariablesThatHoldSecretsInsteadOfTheirValues() {
        Rendered r = Chart.render(ALL_SECRETS);

        JsonNode yaml = r.raglogYaml();
        assertThat(yaml.path("elasticsearch").path("api_key_env").asText()).isEqualTo("RAGLOG_ES_API_KEY");
        assertThat(yaml.path("elasticsearch").path("ca_certificate").asText()).isEqualTo("/etc/raglog/es-tls/ca.crt");
        String jaas = yaml.path("kafka").path("properties").path("sasl.jaas.config").asText();
        assertThat(jaas).contains("password=\"${env:RAGLOG_KAFKA_SASL_PASSWORD}\"");
        assertThat(yaml.path("kafka").path("properties").path("config.providers.env.class").asText())
                .isEqualTo("org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        assertThat(r.proxyYaml().path("sink").path("kafka").path("properties").path("sasl.jaas.config").asText())
                .isEqualTo(jaas);
    }

    @Test
    void shouldSetNoSecretLookingVariableFromALiteral() {
        Rendered r = Chart.render(ALL_SECRETS);
        List<JsonNode> envs = new ArrayList<>();
        r.flinkContainer().path("env").forEach(envs::add);
        proxyContainer(r).path("env").forEach(envs::add);

        assertThat(envs).filteredOn(e -> SECRET_NAME.matcher(e.path("name").asText()).matches())
                .isNotEmpty()
                .allSatisfy(e -> {
                    assertThat(e.has("value")).as("%s has a literal value", e.path("name").asText()).isFalse();
                    assertThat(e.path("valueFrom").has("secretKeyRef")).isTrue();
                });
    }

    @Test
    void shouldRefuseAnInlineLlmApiKeyWithoutRepeatingIt() {
        String refusal = Chart.refusal(values("raglog.llm.provider", "openai", "raglog.llm.model", "gpt-4o-mini",
                "raglog.llm.apiKey", "sk-live-0123456789"));

        assertThat(refusal).contains("raglog.llm.apiKey").contains("never inline").doesNotContain("sk-live-0123456789");
    }

    @Test
    void shouldRefuseALiteralPasswordInKafkaProperties() {
        String refusal = Chart.refusal(values("raglog.kafka.properties.ssl\\.keystore\\.password", "hunter2"));

        assertThat(refusal).contains("ssl.keystore.password").contains("${env:").doesNotContain("hunter2");
    }

    @Test
    void shouldAcceptAPasswordInKafkaPropertiesAsAConfigProviderReference() {
        Rendered r = Chart.render(values("raglog.kafka.properties.ssl\\.keystore\\.password",
                "${file:/etc/raglog/kafka-keystore/password.properties:password}"));

        assertThat(r.raglogYaml().path("kafka").path("properties").path("ssl.keystore.password").asText())
                .isEqualTo("${file:/etc/raglog/kafka-keystore/password.properties:password}");
    }

    @Test
    void shouldRefuseCredentialsInTheFlinkConfiguration() {
        assertThat(Chart.refusal(values("job.flinkConfiguration.s3\\.secret-key", "abc")))
                .contains("s3.secret-key").contains("job.env");
        assertThat(Chart.refusal(values("job.s3.secretKey", "abc"))).contains("job.s3.credentials.secretName");
    }

    @Test
    void shouldRequireThePasswordSecretWhenKafkaUsesSasl() {
        assertThat(Chart.refusal(values("raglog.kafka.security.protocol", "SASL_SSL")))
                .contains("passwordSecret.name");
    }

    private static JsonNode proxyContainer(Rendered r) {
        return r.get("Deployment", Chart.FULLNAME + "-proxy").path("spec").path("template").path("spec")
                .path("containers").get(0);
    }

    /** "secret/key" of an env var that comes from a Secret. */
    private static String secretRef(JsonNode env, String name) {
        for (JsonNode e : env) {
            if (name.equals(e.path("name").asText())) {
                assertThat(e.has("value")).as("%s is set inline", name).isFalse();
                JsonNode ref = e.path("valueFrom").path("secretKeyRef");
                return ref.path("name").asText() + "/" + ref.path("key").asText();
            }
        }
        throw new AssertionError("no environment variable " + name + " in " + env);
    }
}

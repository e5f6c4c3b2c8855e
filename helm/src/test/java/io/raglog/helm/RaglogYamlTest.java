package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * raglog.yaml is read strictly: one misspelt key and the job does not start. The keys the chart writes are checked
 * against the configuration reference in docs/configuration.md, which the job's ConfigurationReferenceTest keeps equal to
 * its options (this module builds without the job).
 */
class RaglogYamlTest {

    /** Options whose value is a map of the user's own keys (client properties, rates). */
    private static final Set<String> FREE_FORM = Set.of("kafka.properties", "sampling.pipelines");

    @Test
    void shouldWriteOnlyKeysTheJobReads() {
        Set<String> known = documentedKeys();
        Rendered everything = Chart.render(values(
                "raglog.elasticsearch.enabled", "true", "raglog.elasticsearch.auth.username", "raglog",
                "raglog.elasticsearch.auth.passwordSecret.name", "es", "raglog.elasticsearch.caSecret.name", "es-ca",
                "raglog.llm.provider", "bedrock", "raglog.llm.model", "us.anthropic.claude-3-5-haiku-20241022-v1:0",
                "raglog.llm.baseUrl", "https://bedrock-runtime.us-east-1.amazonaws.com", "raglog.llm.region",
                "us-east-1", "raglog.llm.apiKeySecret.name", "bedrock",
                "raglog.sampling.pipelines.support-bot", "0.1", "raglog.bundle", "/opt/raglog/bundles/b7"));

        List<String> unknown = new ArrayList<>();
        collectUnknown(everything.raglogYaml(), "", known, unknown);

        assertThat(known).contains("kafka.bootstrap", "kafka.topics.calls", "llm.provider", "flink.parallelism",
                "elasticsearch.password_env", "sampling.pipelines", "bundle");
        assertThat(unknown).isEmpty();
        assertThat(everything.raglogYaml().path("llm").path("region").asText()).isEqualTo("us-east-1");
        assertThat(everything.raglogYaml().path("elasticsearch").path("password_env").asText())
                .isEqualTo("RAGLOG_ES_PASSWORD");
        assertThat(everything.raglogYaml().path("sampling").path("pipelines").path("support-bot").asDouble())
                .isEqualTo(0.1);
    }

    @Test
    void shouldWriteTheValuesOfRaglogExampleYamlByDefault() {
        JsonNode example = Chart.parseYaml(Repo.read("raglog.example.yaml"));
        JsonNode rendered = Chart.render().raglogYaml();

        assertThat(rendered.path("kafka").path("topics")).isEqualTo(example.path("kafka").path("topics"));
        assertThat(rendered.path("assembly")).isEqualTo(example.path("assembly"));
        assertThat(rendered.path("fault_rates")).isEqualTo(example.path("fault_rates"));
        assertThat(rendered.path("llm").path("provider").asText()).isEqualTo("offline");
        assertThat(rendered.path("kafka").path("exactly_once").asBoolean()).isTrue();
    }

    private static void collectUnknown(JsonNode node, String path, Set<String> known, List<String> out) {
        node.fieldNames().forEachRemaining(name -> {
            String key = path.isEmpty() ? name : path + "." + name;
            JsonNode value = node.path(name);
            if (known.contains(key)) {
                return; // a value (a map of the user's own keys for FREE_FORM options)
            }
            if (value.isObject() && !FREE_FORM.contains(key)
                    && known.stream().anyMatch(k -> k.startsWith(key + "."))) {
                collectUnknown(value, key, known, out);
            } else {
                out.add(key);
            }
        });
    }

    /** The keys of the configuration reference: the first column of its table. */
    private static Set<String> documentedKeys() {
        Matcher m = Pattern.compile("(?m)^\\| `([a-z_.]+)` \\| `RAGLOG_[A-Z_]+` \\|")
                .matcher(Repo.read("docs/configuration.md"));
        Set<String> keys = new LinkedHashSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }
}

package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * raglog.yaml is read with FAIL_ON_UNKNOWN_PROPERTIES: one misspelt key and the job does not start. The keys the chart
 * writes are checked against the records of {@code io.raglog.job.RaglogConfig} (its source: this module builds
 * without the job).
 */
class RaglogYamlTest {

    /** Which record reads the map at each path; maps not listed here are free-form (client properties, rates). */
    private static final Map<String, String> RECORD_AT = Map.of(
            "", "RaglogConfig", "kafka", "Kafka", "kafka.topics", "Topics", "elasticsearch", "Elasticsearch",
            "llm", "Llm", "sampling", "Sampling", "assembly", "Assembly", "fault_rates", "FaultRates",
            "flink", "Flink");
    private static final Set<String> FREE_FORM = Set.of("kafka.properties", "sampling.pipelines");

    @Test
    void shouldWriteOnlyKeysTheJobReads() {
        Map<String, Set<String>> known = recordKeys();
        Rendered everything = Chart.render(values(
                "raglog.elasticsearch.enabled", "true", "raglog.elasticsearch.auth.username", "raglog",
                "raglog.elasticsearch.auth.passwordSecret.name", "es", "raglog.elasticsearch.caSecret.name", "es-ca",
                "raglog.llm.provider", "anthropic", "raglog.llm.model", "claude-haiku", "raglog.llm.baseUrl",
                "https://api.anthropic.com/v1", "raglog.llm.apiKeySecret.name", "anthropic",
                "raglog.sampling.pipelines.support-bot", "0.1", "raglog.bundle", "/opt/raglog/bundles/b7"));

        List<String> unknown = new ArrayList<>();
        collectUnknown(everything.raglogYaml(), "", known, unknown);

        assertThat(known).containsKeys("RaglogConfig", "Kafka", "Topics", "Llm", "Flink");
        assertThat(unknown).isEmpty();
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

    private static void collectUnknown(JsonNode node, String path, Map<String, Set<String>> known, List<String> out) {
        if (!node.isObject() || FREE_FORM.contains(path)) {
            return;
        }
        String record = RECORD_AT.get(path);
        assertThat(record).as("the chart writes a map at '%s' that no RaglogConfig record reads", path).isNotNull();
        node.fieldNames().forEachRemaining(key -> {
            if (!known.get(record).contains(key)) {
                out.add((path.isEmpty() ? "" : path + ".") + key);
            }
            collectUnknown(node.path(key), path.isEmpty() ? key : path + "." + key, known, out);
        });
    }

    /** Record name → its components in snake_case, from RaglogConfig.java and Topics.java. */
    private static Map<String, Set<String>> recordKeys() {
        String source = Repo.read("job/src/main/java/io/raglog/job/RaglogConfig.java")
                + Repo.read("job/src/main/java/io/raglog/job/Topics.java");
        Matcher m = Pattern.compile("record\\s+(\\w+)\\s*\\(([^)]*)\\)").matcher(source);
        Map<String, Set<String>> out = new HashMap<>();
        while (m.find()) {
            Set<String> keys = new LinkedHashSet<>();
            for (String component : m.group(2).split(",")) {
                String[] words = component.trim().split("\\s+");
                keys.add(snakeCase(words[words.length - 1]));
            }
            out.put(m.group(1), keys);
        }
        return out;
    }

    private static String snakeCase(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}

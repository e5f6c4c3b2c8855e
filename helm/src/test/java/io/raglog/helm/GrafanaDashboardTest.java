package io.raglog.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class GrafanaDashboardTest {

    private static final String OPERATOR_SCOPE = "flink_taskmanager_job_task_operator_";
    private static final Pattern JOB_METRIC = Pattern.compile(OPERATOR_SCOPE + "(raglog_\\w+)");

    /** Metrics the dashboard shows before the job registers them; empty: every queried metric exists. */
    private static final Set<String> NOT_YET_REGISTERED = Set.of();

    @Test
    void shouldShipTheDashboardAsParsableJsonInAConfigMapGrafanaPicksUp() {
        JsonNode configMap = Chart.render().get("ConfigMap", Chart.FULLNAME + "-grafana-dashboard");

        assertThat(configMap.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        JsonNode dashboard = dashboard();
        assertThat(dashboard.path("uid").asText()).isEqualTo("raglog-overview");
        assertThat(panels(dashboard)).allSatisfy(p -> {
            assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
            p.path("targets").forEach(t -> assertThat(t.path("expr").asText()).isNotBlank());
        });
    }

    @Test
    void shouldShowFaultRatesLlmUsageLossesAndBackPressure() {
        List<String> exprs = new ArrayList<>();
        panels(dashboard()).forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        String all = String.join("\n", exprs);

        assertThat(all).contains("raglog_fault_rate_pipeline_stage_rate")
                .contains("max by (pipeline, stage)")
                .contains("raglog_checks_llm_calls")
                .contains("raglog_checks_llm_input_tokens")
                .contains("raglog_checks_llm_cost_micro_usd")
                .contains("raglog_ingest_calls_dead_lettered")
                .contains("raglog_proxy_dropped_total")
                .contains("backPressuredTimeMsPerSecond");
    }

    @Test
    void shouldQueryOnlyJobMetricsTheJobRegisters() {
        Set<String> registered = registeredJobMetrics();
        Set<String> queried = new LinkedHashSet<>();
        panels(dashboard()).forEach(p -> p.path("targets").forEach(t -> {
            Matcher m = JOB_METRIC.matcher(t.path("expr").asText());
            while (m.find()) {
                queried.add(m.group(1));
            }
        }));

        assertThat(registered).contains("raglog_fault_rate_pipeline_stage_rate", "raglog_score_stage_flagged",
                "raglog_checks_llm_calls");
        assertThat(queried).isNotEmpty();
        assertThat(queried).filteredOn(name -> !NOT_YET_REGISTERED.contains(name))
                .allSatisfy(name -> assertThat(registered).as("registered job metrics").contains(name));
        assertThat(NOT_YET_REGISTERED).as("a metric now registered: take it off NOT_YET_REGISTERED")
                .doesNotContainAnyElementsOf(registered);
    }

    private static JsonNode dashboard() {
        String json = Chart.render().get("ConfigMap", Chart.FULLNAME + "-grafana-dashboard").path("data")
                .path("raglog.json").asText();
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new AssertionError("the dashboard in the ConfigMap is not JSON: " + e.getMessage(), e);
        }
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        dashboard.path("panels").forEach(p -> {
            if (!"row".equals(p.path("type").asText())) {
                out.add(p);
            }
        });
        return out;
    }

    /**
     * The Prometheus names of the metrics the Flink functions register under the "raglog" group, read from their
     * sources: group "raglog" → subgroup → key groups (labels, named in the metric) → counter or gauge, joined by "_"
     * as Flink's Prometheus reporter does.
     */
    private static Set<String> registeredJobMetrics() {
        Pattern subgroup = Pattern.compile("addGroup\\(\"raglog\"\\)\\s*\\.addGroup\\(\"(\\w+)\"\\)");
        Pattern keyGroup = Pattern.compile("addGroup\\(\"(\\w+)\",");
        Pattern metric = Pattern.compile("\\.(?:counter|gauge|meter|histogram)\\(\"(\\w+)\"");
        Set<String> out = new LinkedHashSet<>();
        for (Path file : javaSources("udfs/src/main/java", "job/src/main/java")) {
            String source = read(file);
            Matcher g = subgroup.matcher(source);
            if (!g.find()) {
                continue;
            }
            String group = g.group(1);
            for (String statement : source.split(";")) {
                Matcher name = metric.matcher(statement);
                while (name.find()) {
                    StringBuilder full = new StringBuilder("raglog_").append(group);
                    Matcher key = keyGroup.matcher(statement.substring(0, name.start()));
                    while (key.find()) {
                        full.append('_').append(key.group(1));
                    }
                    out.add(full.append('_').append(name.group(1)).toString());
                }
            }
        }
        return out;
    }

    private static List<Path> javaSources(String... roots) {
        List<Path> out = new ArrayList<>();
        for (String root : roots) {
            try (Stream<Path> files = Files.walk(Repo.root().resolve(root))) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.raglog.helm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/** The manifests of one {@code helm template}, parsed. */
record Rendered(List<JsonNode> manifests) {

    List<JsonNode> ofKind(String kind) {
        return manifests.stream().filter(m -> kind.equals(m.path("kind").asText())).toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return ofKind(kind).stream().filter(m -> name.equals(m.path("metadata").path("name").asText())).findFirst();
    }

    JsonNode get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in "
                + manifests.stream().map(m -> m.path("kind").asText() + "/" + m.path("metadata").path("name").asText())
                        .toList()));
    }

    JsonNode flinkDeployment() {
        return get("FlinkDeployment", Chart.FULLNAME);
    }

    /** A {@code flinkConfiguration} entry, as the operator receives it (always a string). */
    String flinkConfig(String key) {
        JsonNode value = flinkDeployment().path("spec").path("flinkConfiguration").path(key);
        return value.isMissingNode() ? null : value.asText();
    }

    /** raglog.yaml as the job reads it. */
    JsonNode raglogYaml() {
        return Chart.parseYaml(get("ConfigMap", Chart.FULLNAME + "-config").path("data").path("raglog.yaml").asText());
    }

    /** proxy.yaml as the proxy reads it. */
    JsonNode proxyYaml() {
        return Chart.parseYaml(get("ConfigMap", Chart.FULLNAME + "-proxy").path("data").path("proxy.yaml").asText());
    }

    /** The Flink container's settings the operator merges into the JobManager and TaskManager pods. */
    JsonNode flinkContainer() {
        for (JsonNode c : flinkDeployment().path("spec").path("podTemplate").path("spec").path("containers")) {
            if ("flink-main-container".equals(c.path("name").asText())) {
                return c;
            }
        }
        throw new AssertionError("the pod template has no flink-main-container");
    }
}

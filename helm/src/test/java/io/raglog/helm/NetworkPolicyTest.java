package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class NetworkPolicyTest {

    @Test
    void shouldLetOnlyTheOperatorAndPrometheusReachTheFlinkPodsFromOutside() {
        Rendered r = Chart.render(values("networkPolicy.enabled", "true", "networkPolicy.operatorNamespace", "flink-ops"));

        JsonNode policy = r.get("NetworkPolicy", Chart.FULLNAME + "-flink").path("spec");
        JsonNode podLabels = r.flinkDeployment().path("spec").path("podTemplate").path("metadata").path("labels");
        policy.path("podSelector").path("matchLabels").fields().forEachRemaining(e ->
                assertThat(podLabels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
        assertThat(policy.path("ingress")).anySatisfy(rule -> {
            assertThat(rule.path("from").get(0).path("namespaceSelector").path("matchLabels")
                    .path("kubernetes.io/metadata.name").asText()).isEqualTo("flink-ops");
            assertThat(rule.path("ports").get(0).path("port").asInt()).isEqualTo(8081);
        });
        assertThat(Chart.render().ofKind("NetworkPolicy")).isEmpty();
    }

    @Test
    void shouldLetOnlyTheNamedPipelinesCallTheProxy() {
        Rendered r = Chart.render(values("networkPolicy.enabled", "true", "proxy.enabled", "true",
                "networkPolicy.proxyAllowFrom[0].namespaceSelector.matchLabels.team", "rag"));

        JsonNode ingress = r.get("NetworkPolicy", Chart.FULLNAME + "-proxy").path("spec").path("ingress");
        assertThat(ingress.get(0).path("from").get(0).path("namespaceSelector").path("matchLabels").path("team")
                .asText()).isEqualTo("rag");
        assertThat(ingress.get(0).path("ports").get(0).path("port").asInt()).isEqualTo(8080);
    }
}

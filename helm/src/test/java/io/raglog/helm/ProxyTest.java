package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The logging proxy: a Deployment and a Service, its routes from values. */
class ProxyTest {

    private static final Map<String, String> TWO_ROUTES = values("proxy.enabled", "true",
            "proxy.pipeline", "support-bot",
            "proxy.routes[0].prefix", "/openai", "proxy.routes[0].upstream", "https://api.openai.com",
            "proxy.routes[1].host", "qdrant.internal", "proxy.routes[1].upstream", "http://qdrant.rag.svc:6333",
            "proxy.routes[1].pipeline", "search-bot",
            "raglog.kafka.topics.calls", "team-a.raglog.calls");

    @Test
    void shouldNotDeployTheProxyUnlessAskedTo() {
        Rendered r = Chart.render();

        assertThat(r.ofKind("Deployment")).isEmpty();
        assertThat(r.find("Service", Chart.FULLNAME + "-proxy")).isEmpty();
        assertThat(r.find("ConfigMap", Chart.FULLNAME + "-proxy")).isEmpty();
    }

    @Test
    void shouldWriteTheRoutesFromValuesIntoProxyYaml() {
        JsonNode yaml = Chart.render(TWO_ROUTES).proxyYaml();

        assertThat(yaml.path("pipeline").asText()).isEqualTo("support-bot");
        JsonNode routes = yaml.path("routes");
        assertThat(routes).hasSize(2);
        assertThat(routes.get(0).path("prefix").asText()).isEqualTo("/openai");
        assertThat(routes.get(0).path("upstream").asText()).isEqualTo("https://api.openai.com");
        assertThat(routes.get(0).has("host")).isFalse();
        assertThat(routes.get(1).path("host").asText()).isEqualTo("qdrant.internal");
        assertThat(routes.get(1).path("pipeline").asText()).isEqualTo("search-bot");
        assertThat(yaml.path("sink").path("kafka").path("topic").asText())
                .as("the proxy writes where the job reads").isEqualTo("team-a.raglog.calls");
        assertThat(yaml.path("sink").path("kafka").path("bootstrap").asText()).isEqualTo("kafka:9092");
    }

    @Test
    void shouldPassWhichRoutesTheProxyReSignsForAws() {
        JsonNode routes = Chart.render(values("proxy.enabled", "true",
                "proxy.routes[0].prefix", "/bedrock",
                "proxy.routes[0].upstream", "https://bedrock-runtime.us-east-1.amazonaws.com",
                "proxy.routes[0].awsSigv4", "true",
                "proxy.routes[1].prefix", "/kb",
                "proxy.routes[1].upstream", "https://vpce-0a1b.bedrock-agent-runtime.us-east-1.vpce.amazonaws.com",
                "proxy.routes[1].awsSigv4.service", "bedrock", "proxy.routes[1].awsSigv4.region", "us-east-1",
                "proxy.routes[2].prefix", "/openai", "proxy.routes[2].upstream", "https://api.openai.com"))
                .proxyYaml().path("routes");

        assertThat(routes.get(0).path("aws_sigv4").asBoolean()).isTrue();
        assertThat(routes.get(1).path("aws_sigv4").path("service").asText()).isEqualTo("bedrock");
        assertThat(routes.get(1).path("aws_sigv4").path("region").asText()).isEqualTo("us-east-1");
        assertThat(routes.get(2).has("aws_sigv4")).isFalse();
    }

    @Test
    void shouldGiveTheProxyAnIdentityForAwsOnlyWhenAskedTo() {
        Rendered none = Chart.render(TWO_ROUTES);
        Rendered created = Chart.render(values("proxy.enabled", "true", "proxy.serviceAccount.create", "true",
                "proxy.serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn",
                "arn:aws:iam::123456789012:role/raglog-proxy-bedrock"));
        Rendered named = Chart.render(values("proxy.enabled", "true", "proxy.serviceAccount.name", "bedrock-callers"));

        assertThat(pod(none).has("serviceAccountName")).isFalse();
        assertThat(none.find("ServiceAccount", Chart.FULLNAME + "-proxy")).isEmpty();
        JsonNode account = created.get("ServiceAccount", Chart.FULLNAME + "-proxy");
        assertThat(account.path("metadata").path("annotations").path("eks.amazonaws.com/role-arn").asText())
                .isEqualTo("arn:aws:iam::123456789012:role/raglog-proxy-bedrock");
        assertThat(account.path("automountServiceAccountToken").asBoolean(true)).isFalse();
        assertThat(pod(created).path("serviceAccountName").asText()).isEqualTo(Chart.FULLNAME + "-proxy");
        assertThat(pod(created).path("automountServiceAccountToken").asBoolean(true)).isFalse();
        assertThat(pod(named).path("serviceAccountName").asText()).isEqualTo("bedrock-callers");
        assertThat(named.find("ServiceAccount", "bedrock-callers")).isEmpty();
    }

    private static JsonNode pod(Rendered r) {
        return r.get("Deployment", Chart.FULLNAME + "-proxy").path("spec").path("template").path("spec");
    }

    @Test
    void shouldListenOnAllInterfacesOnThePortsTheServiceExposes() {
        Rendered r = Chart.render(TWO_ROUTES);

        JsonNode yaml = r.proxyYaml();
        assertThat(yaml.path("listen").asText()).isEqualTo("0.0.0.0:8080");
        assertThat(yaml.path("admin").asText()).isEqualTo("0.0.0.0:9180");
        JsonNode service = r.get("Service", Chart.FULLNAME + "-proxy").path("spec");
        assertThat(service.path("ports")).extracting(p -> p.path("name").asText() + ":" + p.path("port").asInt())
                .containsExactlyInAnyOrder("http:8080", "metrics:9180");
        JsonNode pod = r.get("Deployment", Chart.FULLNAME + "-proxy").path("spec").path("template");
        service.path("selector").fields().forEachRemaining(e ->
                assertThat(pod.path("metadata").path("labels").path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
        JsonNode container = pod.path("spec").path("containers").get(0);
        assertThat(container.path("args")).extracting(JsonNode::asText)
                .containsExactly("--config", "/etc/raglog-proxy/proxy.yaml");
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/healthz");
        assertThat(r.get("ServiceMonitor", Chart.FULLNAME + "-proxy").path("spec").path("endpoints").get(0)
                .path("port").asText()).isEqualTo("metrics");
    }

    @Test
    void shouldRefuseAnUpstreamCarryingCredentials() {
        assertThat(Chart.refusal(values("proxy.enabled", "true", "proxy.routes[0].prefix", "/es",
                "proxy.routes[0].upstream", "https://elastic:changeme@es.internal:9200")))
                .contains("without credentials");
    }

    @Test
    void shouldRefuseARouteWithBothAPrefixAndAHost() {
        assertThat(Chart.refusal(values("proxy.enabled", "true", "proxy.routes[0].prefix", "/openai",
                "proxy.routes[0].host", "openai.internal", "proxy.routes[0].upstream", "https://api.openai.com")))
                .contains("not both or neither");
    }
}

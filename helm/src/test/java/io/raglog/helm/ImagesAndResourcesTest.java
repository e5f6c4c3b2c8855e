package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Nothing runs on a floating image or without resources: every container is pinned and sized. */
class ImagesAndResourcesTest {

    private static final Rendered EVERYTHING = Chart.render(values("proxy.enabled", "true",
            "networkPolicy.enabled", "true"));

    @Test
    void shouldPinEveryImageToATag() {
        List<String> images = new ArrayList<>();
        images.add(EVERYTHING.flinkDeployment().path("spec").path("image").asText());
        for (JsonNode c : containers(EVERYTHING)) {
            if (c.has("image")) {
                images.add(c.path("image").asText());
            }
        }

        assertThat(images).hasSizeGreaterThanOrEqualTo(2).allSatisfy(image -> {
            assertThat(image).matches("[^\\s:]+(:[^:\\s]+|@sha256:[0-9a-f]{64})");
            assertThat(image).doesNotEndWith(":latest").doesNotEndWith(":");
        });
        assertThat(images).contains("raglog/raglog-job:0.1.0", "raglog/raglog-proxy:0.1.0");
    }

    @Test
    void shouldSizeTheJobManagerAndTaskManagers() {
        JsonNode spec = EVERYTHING.flinkDeployment().path("spec");

        for (String role : List.of("jobManager", "taskManager")) {
            JsonNode resource = spec.path(role).path("resource");
            assertThat(resource.path("cpu").asDouble()).as(role + " cpu").isPositive();
            assertThat(resource.path("memory").asText()).as(role + " memory").matches("\\d+[mg]");
        }
        assertThat(EVERYTHING.flinkDeployment().path("spec").path("podTemplate").path("spec").path("volumes"))
                .anySatisfy(v -> assertThat(v.path("emptyDir").path("sizeLimit").asText()).isEqualTo("20Gi"));
    }

    @Test
    void shouldGiveEveryDeploymentContainerRequestsAndLimits() {
        List<JsonNode> deployed = new ArrayList<>();
        for (JsonNode d : EVERYTHING.ofKind("Deployment")) {
            d.path("spec").path("template").path("spec").path("containers").forEach(deployed::add);
        }

        assertThat(deployed).isNotEmpty().allSatisfy(c -> {
            for (String kind : List.of("requests", "limits")) {
                JsonNode r = c.path("resources").path(kind);
                assertThat(r.path("cpu").asText()).as("%s %s cpu", c.path("name").asText(), kind).isNotBlank();
                assertThat(r.path("memory").asText()).as("%s %s memory", c.path("name").asText(), kind).isNotBlank();
            }
        });
    }

    @Test
    void shouldRunAsNonRootUsers() {
        JsonNode flinkPod = EVERYTHING.flinkDeployment().path("spec").path("podTemplate").path("spec");
        JsonNode proxyPod = EVERYTHING.get("Deployment", Chart.FULLNAME + "-proxy").path("spec").path("template")
                .path("spec");

        assertThat(flinkPod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(flinkPod.path("securityContext").path("runAsUser").asInt()).isEqualTo(9999);
        assertThat(proxyPod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(proxyPod.path("containers").get(0).path("securityContext").path("readOnlyRootFilesystem")
                .asBoolean()).isTrue();
    }

    private static List<JsonNode> containers(Rendered r) {
        List<JsonNode> out = new ArrayList<>();
        r.flinkDeployment().path("spec").path("podTemplate").path("spec").path("containers").forEach(out::add);
        for (JsonNode d : r.ofKind("Deployment")) {
            d.path("spec").path("template").path("spec").path("containers").forEach(out::add);
        }
        return out;
    }
}

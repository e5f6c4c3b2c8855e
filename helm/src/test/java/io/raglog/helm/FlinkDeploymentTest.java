package io.raglog.helm;

import static io.raglog.helm.Chart.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job as the Flink Kubernetes Operator receives it. */
class FlinkDeploymentTest {

    @Test
    void shouldRunTheJobJarFromUsrlibInApplicationModeWithTheChartsConfig() {
        JsonNode spec = Chart.render().flinkDeployment().path("spec");

        assertThat(spec.path("image").asText()).isEqualTo("raglog/raglog-job:0.1.0");
        assertThat(spec.path("flinkVersion").asText()).isEqualTo("v2_2");
        assertThat(spec.path("mode").asText()).isEqualTo("native");
        JsonNode job = spec.path("job");
        assertThat(job.path("jarURI").asText()).isEqualTo("local:///opt/flink/usrlib/raglog-job.jar");
        assertThat(job.path("entryClass").asText()).isEqualTo("io.raglog.job.ApplicationModeEntryPoint");
        assertThat(job.path("args")).extracting(JsonNode::asText)
                .containsExactly("run", "--config", "/opt/raglog/raglog.yaml");
        assertThat(Chart.render().flinkContainer().path("volumeMounts"))
                .anySatisfy(m -> {
                    assertThat(m.path("mountPath").asText()).isEqualTo("/opt/raglog/raglog.yaml");
                    assertThat(m.path("subPath").asText()).isEqualTo("raglog.yaml");
                });
    }

    @Test
    void shouldTakeTheJarImageAndEntryClassFromValues() {
        JsonNode spec = Chart.render(values("job.image.repository", "registry.example.com/raglog-job",
                "job.image.tag", "0.2.0", "job.jarURI", "local:///opt/flink/usrlib/custom.jar")).flinkDeployment()
                .path("spec");

        assertThat(spec.path("image").asText()).isEqualTo("registry.example.com/raglog-job:0.2.0");
        assertThat(spec.path("job").path("jarURI").asText()).isEqualTo("local:///opt/flink/usrlib/custom.jar");
    }

    @Test
    void shouldGiveTheJobAndRaglogYamlTheSameParallelism() {
        Rendered r = Chart.render(values("job.parallelism", "12", "job.taskManager.slots", "4"));

        assertThat(r.flinkDeployment().path("spec").path("job").path("parallelism").asInt()).isEqualTo(12);
        assertThat(r.raglogYaml().path("flink").path("parallelism").asInt())
                .as("RunCommand applies raglog.yaml's parallelism itself; it must not undo the operator's").isEqualTo(12);
        assertThat(r.flinkConfig("taskmanager.numberOfTaskSlots")).isEqualTo("4");
        assertThat(r.flinkConfig("pipeline.max-parallelism")).isEqualTo("128");
    }

    @Test
    void shouldKeepStateInRocksDbWithIncrementalCheckpointsAndSavepointsWhereValuesSay() {
        Rendered r = Chart.render(values("job.checkpoints.dir", "s3://state-bucket/raglog/checkpoints",
                "job.savepoints.dir", "s3://state-bucket/raglog/savepoints", "job.checkpoints.intervalSeconds", "45",
                "job.s3.endpoint", "http://minio.minio:9000", "job.s3.pathStyleAccess", "true"));

        assertThat(r.flinkConfig("state.backend.type")).isEqualTo("rocksdb");
        assertThat(r.flinkConfig("execution.checkpointing.incremental")).isEqualTo("true");
        assertThat(r.flinkConfig("execution.checkpointing.dir")).isEqualTo("s3://state-bucket/raglog/checkpoints");
        assertThat(r.flinkConfig("execution.checkpointing.savepoint-dir")).isEqualTo("s3://state-bucket/raglog/savepoints");
        assertThat(r.flinkConfig("execution.checkpointing.interval")).isEqualTo("45 s");
        assertThat(r.flinkConfig("execution.checkpointing.externalized-checkpoint-retention"))
                .isEqualTo("RETAIN_ON_CANCELLATION");
        assertThat(r.flinkConfig("state.backend.rocksdb.localdir")).isEqualTo("/opt/flink/rocksdb");
        assertThat(r.flinkConfig("s3.endpoint")).isEqualTo("http://minio.minio:9000");
        assertThat(r.flinkConfig("s3.path.style.access")).isEqualTo("true");
        JsonNode flink = r.raglogYaml().path("flink");
        assertThat(flink.path("checkpoint_dir").asText()).isEqualTo("s3://state-bucket/raglog/checkpoints");
        assertThat(flink.path("checkpoint_interval").asText()).isEqualTo("PT45S");
        assertThat(r.flinkContainer().path("volumeMounts"))
                .anySatisfy(m -> assertThat(m.path("mountPath").asText()).isEqualTo("/opt/flink/rocksdb"));
    }

    @Test
    void shouldUpgradeThroughSavepointsWithKubernetesHighAvailability() {
        Rendered r = Chart.render();

        JsonNode job = r.flinkDeployment().path("spec").path("job");
        assertThat(job.path("upgradeMode").asText()).isEqualTo("savepoint");
        assertThat(job.path("state").asText()).isEqualTo("running");
        assertThat(r.flinkConfig("high-availability.type")).isEqualTo("kubernetes");
        assertThat(r.flinkConfig("high-availability.storageDir")).isEqualTo("s3://raglog/ha");
        assertThat(r.flinkConfig("kubernetes.operator.periodic.savepoint.interval")).isEqualTo("6h");
    }

    @Test
    void shouldRedeployFromAChosenSavepointWhenAskedTo() {
        JsonNode job = Chart.render(values("job.initialSavepointPath", "s3://raglog/savepoints/savepoint-4f2a",
                "job.savepointRedeployNonce", "3")).flinkDeployment().path("spec").path("job");

        assertThat(job.path("initialSavepointPath").asText()).isEqualTo("s3://raglog/savepoints/savepoint-4f2a");
        assertThat(job.path("savepointRedeployNonce").asLong()).isEqualTo(3);
        assertThat(Chart.render().flinkDeployment().path("spec").path("job").has("savepointRedeployNonce")).isFalse();
    }

    @Test
    void shouldRefuseLastStateUpgradesWithoutHighAvailability() {
        assertThat(Chart.refusal(values("job.upgradeMode", "last-state", "job.highAvailability.enabled", "false")))
                .contains("last-state").contains("highAvailability");
    }

    @Test
    void shouldRefuseAParallelismAboveTheMaxParallelism() {
        assertThat(Chart.refusal(values("job.parallelism", "200"))).contains("maxParallelism");
    }

    @Test
    void shouldOfferTheOperatorsAutoscalerOnlyWhenEnabled() {
        assertThat(Chart.render().flinkDeployment().path("spec").path("flinkConfiguration").fieldNames())
                .toIterable().noneMatch(k -> k.startsWith("job.autoscaler."));

        Rendered r = Chart.render(values("job.autoscaler.enabled", "true", "job.autoscaler.vertexMaxParallelism", "16",
                "job.autoscaler.excludeVertexIds[0]", "cbc357ccb763df2852fee8c4fc7d55f2"));

        assertThat(r.flinkConfig("job.autoscaler.enabled")).isEqualTo("true");
        assertThat(r.flinkConfig("job.autoscaler.target.utilization")).isEqualTo("0.7");
        assertThat(r.flinkConfig("job.autoscaler.vertex.max-parallelism")).isEqualTo("16");
        assertThat(r.flinkConfig("job.autoscaler.vertex.exclude.ids")).isEqualTo("cbc357ccb763df2852fee8c4fc7d55f2");
    }

    @Test
    void shouldReportMetricsToPrometheusOnThePortThePodMonitorScrapes() {
        Rendered r = Chart.render();

        assertThat(r.flinkConfig("metrics.reporter.prom.factory.class"))
                .isEqualTo("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        assertThat(r.flinkConfig("metrics.reporter.prom.port")).isEqualTo("9249");
        assertThat(r.flinkContainer().path("ports")).anySatisfy(p -> {
            assertThat(p.path("name").asText()).isEqualTo("metrics");
            assertThat(p.path("containerPort").asInt()).isEqualTo(9249);
        });
        JsonNode monitor = r.get("PodMonitor", Chart.FULLNAME).path("spec");
        assertThat(monitor.path("podMetricsEndpoints").get(0).path("port").asText()).isEqualTo("metrics");
        JsonNode podLabels = r.flinkDeployment().path("spec").path("podTemplate").path("metadata").path("labels");
        monitor.path("selector").path("matchLabels").fields().forEachRemaining(
                e -> assertThat(podLabels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
    }

    @Test
    void shouldRollTheJobWhenRaglogYamlChanges() {
        String before = checksum(Chart.render());
        String after = checksum(Chart.render(values("raglog.sampling.defaultRate", "0.25")));

        assertThat(Chart.render(values("raglog.sampling.defaultRate", "0.25")).raglogYaml()
                .path("sampling").path("default_rate").asDouble()).isEqualTo(0.25);
        assertThat(after).isNotBlank().isNotEqualTo(before);
    }

    @Test
    void shouldGiveFlinkEveryJvmOpenRaglogNeedsOnJava17() {
        List<String> needed = Arrays.asList(Repo.pomProperty("raglog.jvm.opens").split("\\s+"));

        assertThat(Chart.render().flinkConfig("env.java.opts.all").split("\\s+")).contains(needed.toArray(String[]::new));
    }

    private static String checksum(Rendered r) {
        return r.flinkDeployment().path("spec").path("podTemplate").path("metadata").path("annotations")
                .path("checksum/raglog-config").asText();
    }
}

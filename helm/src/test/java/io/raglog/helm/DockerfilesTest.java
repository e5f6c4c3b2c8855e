package io.raglog.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The images the chart runs, as their Dockerfiles build them, agree with the chart and the build. */
class DockerfilesTest {

    private static final String JOB = Repo.read("helm/Dockerfile.job");
    private static final String PROXY = Repo.read("helm/Dockerfile.proxy");

    @Test
    void shouldBuildTheJobOnTheOfficialFlinkImageOfTheVersionTheJobIsBuiltAgainst() {
        Matcher base = Pattern.compile("ARG FLINK_IMAGE=flink:([\\d.]+)-").matcher(JOB);

        assertThat(base.find()).as("Dockerfile.job starts from the official flink image").isTrue();
        assertThat(base.group(1)).isEqualTo(Repo.pomProperty("flink.version"));
        assertThat(Chart.render().flinkDeployment().path("spec").path("flinkVersion").asText())
                .isEqualTo("v" + base.group(1).replaceFirst("^(\\d+)\\.(\\d+).*", "$1_$2"));
    }

    @Test
    void shouldPutTheJarWhereTheFlinkDeploymentLooksForIt() {
        String jarUri = Chart.render().flinkDeployment().path("spec").path("job").path("jarURI").asText();

        assertThat(jarUri).startsWith("local://");
        assertThat(JOB).contains("/src/job/target/raglog-job.jar " + jarUri.substring("local://".length()));
        assertThat(JOB).contains("/src/job/target/lib/ /opt/flink/usrlib/");
        assertThat(JOB).contains("libgomp1").contains("plugins/s3-fs-presto")
                .contains("plugins/metrics-prometheus");
    }

    @Test
    void shouldBuildAndShipTheJobAloneNotTheTools() {
        Matcher build = Pattern.compile("mvn [^\\n]*-pl (\\S+)").matcher(JOB);
        assertThat(build.find()).as("Dockerfile.job builds with Maven").isTrue();
        assertThat(build.group(1)).as("the modules it builds (with what they need)").isEqualTo("job");

        Matcher copied = Pattern.compile("COPY --from=build \\S+ (\\S+) ").matcher(JOB);
        int copies = 0;
        while (copied.find()) {
            copies++;
            assertThat(copied.group(1)).as("what the image gets from the build").startsWith("/src/job/target/");
        }
        assertThat(copies).isEqualTo(2);
    }

    @Test
    void shouldRunTheClassTheFlinkDeploymentNames() {
        String entryClass = Chart.render().flinkDeployment().path("spec").path("job").path("entryClass").asText();

        assertThat(Repo.read("job/src/main/java/" + entryClass.replace('.', '/') + ".java"))
                .contains("public static void main(String[] args)");
    }

    @Test
    void shouldStartTheProxyAsANonRootUserOnThePortsTheChartUses() {
        assertThat(PROXY).contains("\"io.raglog.proxy.ProxyCommand\"")
                .contains("EXPOSE 8080 9180")
                .contains("USER 10001:10001");
        assertThat(Chart.render(Chart.values("proxy.enabled", "true")).proxyYaml().path("listen").asText())
                .endsWith(":8080");
    }

    @Test
    void shouldPinEveryBaseImage() {
        Matcher from = Pattern.compile("ARG \\w+_IMAGE=(\\S+)").matcher(JOB + "\n" + PROXY);
        int images = 0;
        while (from.find()) {
            images++;
            assertThat(from.group(1)).contains(":").doesNotEndWith(":latest");
        }
        assertThat(images).isEqualTo(4);
    }
}

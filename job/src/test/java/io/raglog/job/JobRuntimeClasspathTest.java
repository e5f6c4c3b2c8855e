package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job's runtime classpath is what helm/Dockerfile.job copies into the cluster's usrlib. The broker, the simulator,
 * the proxy, model training and the command line are tools: they run beside the job ({@code cli/}), never inside it,
 * where they would only add classes that can clash with Flink's and the connector's.
 */
class JobRuntimeClasspathTest {

    /** Written by the build (maven-dependency-plugin {@code list}, runtime scope) before the tests run. */
    private static final Path LIST = Path.of("target", "runtime-classpath.txt");

    private static final List<String> TOOLS_ONLY = List.of("org.apache.kafka:kafka_2.13:",
            "org.apache.kafka:kafka-storage:", "org.apache.kafka:kafka-test-common-runtime:",
            "io.raglog:raglog-simulator:", "io.raglog:raglog-proxy:", "io.raglog:raglog-cli:",
            "io.raglog:raglog-training:",
            "io.raglog:raglog-elasticsearch-node:", "org.elasticsearch:elasticsearch:");

    /** What the bedrock judge signs with: the SDK's signer, its credential chain and STS for web identity (IRSA). */
    private static final List<String> AWS_SIGNING = List.of("software.amazon.awssdk:http-auth-aws:",
            "software.amazon.awssdk:auth:", "software.amazon.awssdk:sts:",
            "software.amazon.awssdk:url-connection-client:");

    /** The SDK's own HTTP clients: STS goes through the JDK's (url-connection-client), and nothing else calls AWS. */
    private static final List<String> AWS_CLIENTS = List.of("software.amazon.awssdk:apache-client:",
            "software.amazon.awssdk:apache5-client:", "software.amazon.awssdk:netty-nio-client:");

    private static List<String> runtime() throws IOException {
        return Files.readAllLines(LIST).stream().map(String::strip)
                .filter(line -> line.matches("[\\w.-]+:[\\w.-]+:.*")).toList();
    }

    @Test
    void shouldHoldNoneOfTheToolsDependencies() throws IOException {
        List<String> runtime = runtime();

        assertThat(runtime).as("the list the build wrote").anyMatch(d -> d.startsWith("io.raglog:raglog-udfs:"))
                .anyMatch(d -> d.startsWith("org.apache.kafka:kafka-clients:"));
        for (String tool : TOOLS_ONLY) {
            assertThat(runtime).as("the job's runtime classpath").noneMatch(d -> d.startsWith(tool));
        }
    }

    @Test
    void shouldHoldWhatTheBedrockJudgeSignsWithAndNoneOfTheSdksHttpClients() throws IOException {
        List<String> runtime = runtime();

        for (String needed : AWS_SIGNING) {
            assertThat(runtime).as("the job's runtime classpath").anyMatch(d -> d.startsWith(needed));
        }
        for (String client : AWS_CLIENTS) {
            assertThat(runtime).as("the job's runtime classpath").noneMatch(d -> d.startsWith(client));
        }
    }
}

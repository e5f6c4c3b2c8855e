package io.raglog.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The CPU account groups threads by name, so it is only as right as the names it expects. A Flink task thread is named
 * after its job vertex ("{@code <vertex> (<subtask>/<parallelism>)#<attempt>}"): the job the bench runs is wired here
 * as the bench wires it, and every vertex of its graph is put in a group as its thread would be.
 */
class CpuAccountTest {

    @Test
    void shouldGroupEveryTaskOfTheBenchedJobByWhatItDoes() {
        StreamExecutionEnvironment env = JobRuns.environment(1);
        // as KafkaConnection.wire does, less creating the thresholds topic: the sources and sinks are only built here,
        // and the address is never dialled
        KafkaConnection kafka = new KafkaConnection("localhost:9", Topics.prefixed("bench"), "bench-test", true,
                DeliveryGuarantee.AT_LEAST_ONCE, new Properties());
        JobSettings settings = JobSettings.defaults()
                .withChecks(JobRuns.checks("http://localhost:9", 4, false, false)).withFeedback(null);
        RaglogPipeline.wire(kafka.sources(env, settings), kafka.sinks(), settings);

        List<String> assembly = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (JobVertex vertex : env.getStreamGraph().getJobGraph().getVertices()) {
            String thread = vertex.getName() + " (1/1)#0";
            switch (CpuAccount.Group.of(thread)) {
                case ASSEMBLY_TASK -> assembly.add(vertex.getName());
                case SOURCE_TASKS -> sources.add(vertex.getName());
                case OTHER_TASKS -> others.add(vertex.getName());
                default -> throw new AssertionError(thread + " is a task thread, grouped as "
                        + CpuAccount.Group.of(thread));
            }
        }
        // the assembly is a task of its own (keyed by run); the checks and the scoring run after it, keyed by
        // pipeline, and are among the other tasks
        assertThat(assembly).singleElement().asString().startsWith("assemble runs");
        assertThat(sources).isNotEmpty().allSatisfy(name -> assertThat(name).contains("decode"));
        assertThat(others).anySatisfy(name -> assertThat(name).contains("known passages per pipeline"))
                .anySatisfy(name -> assertThat(name).contains("score stages"));
    }

    @Test
    void shouldTellTheThreadsAroundTheTasksApart() {
        assertThat(CpuAccount.Group.of("Source Data Fetcher for Source: kafka raglog.calls (1/1)#0"))
                .isEqualTo(CpuAccount.Group.KAFKA_CLIENTS);
        assertThat(CpuAccount.Group.of("kafka-producer-network-thread | producer-3"))
                .isEqualTo(CpuAccount.Group.KAFKA_CLIENTS);
        assertThat(CpuAccount.Group.of("raglog-embed-0")).isEqualTo(CpuAccount.Group.EMBEDDING);
        assertThat(CpuAccount.Group.of("flink-pekko.actor.default-dispatcher-4"))
                .isEqualTo(CpuAccount.Group.OTHER_JAVA);
    }
}

package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/**
 * The deployed job's operators (uid and name), the edges between them and the chains they run in. Savepoints find
 * their state by the uids and the dashboards group by task names, so a change here is a deliberate one: update
 * {@code pipeline/operators.txt} with it (the failure prints the graph as it now is).
 */
class PipelineOperatorsTest {

    @Test
    void shouldKeepEveryOperatorEdgeAndChainOfTheDeployedJob() throws IOException {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        KafkaConnection kafka = new KafkaConnection("localhost:9092", Topics.DEFAULTS, "raglog", false,
                DeliveryGuarantee.EXACTLY_ONCE, new Properties());
        JobSettings settings = JobSettings.defaults();
        RaglogPipeline.wire(kafka.sources(env, settings), kafka.sinks(), settings);

        assertThat(String.join("\n", describe(env.getStreamGraph()))).isEqualTo(String.join("\n", expected()));
    }

    @Test
    void shouldFlushEveryEdgeWithinTheConfiguredBufferTimeout() {
        assertThat(bufferTimeouts(JobSettings.fromEnvironment(Map.of()))).containsOnly(10L);
        assertThat(bufferTimeouts(JobSettings.fromEnvironment(Map.of("RAGLOG_FLINK_BUFFER_TIMEOUT", "0 ms"))))
                .containsOnly(0L);
    }

    private static Set<Long> bufferTimeouts(JobSettings settings) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        KafkaConnection kafka = new KafkaConnection("localhost:9092", Topics.DEFAULTS, "raglog", false,
                DeliveryGuarantee.EXACTLY_ONCE, new Properties());
        RaglogPipeline.wire(kafka.sources(env, settings), kafka.sinks(), settings);
        return env.getStreamGraph().getStreamNodes().stream().map(StreamNode::getBufferTimeout)
                .collect(Collectors.toSet());
    }

    private static TreeSet<String> describe(StreamGraph graph) {
        TreeSet<String> lines = new TreeSet<>();
        for (StreamNode n : graph.getStreamNodes()) {
            lines.add("node " + n.getTransformationUID() + " | " + n.getOperatorName());
            n.getOutEdges().forEach(e -> lines.add("edge " + graph.getStreamNode(e.getSourceId()).getOperatorName()
                    + " -> " + graph.getStreamNode(e.getTargetId()).getOperatorName() + " " + e.getPartitioner()
                    + (e.getOutputTag() == null ? "" : " [" + e.getOutputTag().getId() + "]")));
        }
        for (JobVertex v : graph.getJobGraph().getVertices()) {
            lines.add("vertex " + v.getName());
        }
        return lines;
    }

    private static List<String> expected() throws IOException {
        try (InputStream in = PipelineOperatorsTest.class.getResourceAsStream("/pipeline/operators.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}

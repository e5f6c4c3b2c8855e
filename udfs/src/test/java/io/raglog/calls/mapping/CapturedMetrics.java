package io.raglog.calls.mapping;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskMetricGroup;
import org.apache.flink.runtime.metrics.util.TestingMetricRegistry;

/** A task metric group whose counters a test can read, by their group path and name ("raglog.mapping.llm_calls"). */
final class CapturedMetrics {

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final TaskMetricGroup task;

    CapturedMetrics() {
        TestingMetricRegistry registry = TestingMetricRegistry.builder()
                .setRegisterConsumer((metric, name, group) -> {
                    if (metric instanceof Counter c) {
                        counters.put(String.join(".", group.getScopeComponents()) + "." + name, c);
                    }
                })
                .build();
        task = TaskManagerMetricGroup.createTaskManagerMetricGroup(registry, "localhost", ResourceID.generate())
                .addJob(new JobID(), "raglog-test")
                .addTask(ExecutionAttemptID.randomId(), "unknown endpoints");
    }

    TaskMetricGroup task() {
        return task;
    }

    /** The count of {@code raglog.mapping.<name>}; 0 when the counter was never registered. */
    long mapping(String name) {
        String suffix = ".raglog.mapping." + name;
        return counters.entrySet().stream().filter(e -> e.getKey().endsWith(suffix))
                .mapToLong(e -> e.getValue().getCount()).sum();
    }
}

package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.job.JobOptions;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * One job of a scenario on a Flink {@link MiniCluster} the scenario controls (task managers to terminate,
 * savepoints to take), configured the way {@code run} deploys raglog: RocksDB with incremental checkpoints,
 * exactly-once sinks, and a restart strategy, so a failure is recovered rather than fatal.
 */
public final class ChaosJob {

    /** How the chaos jobs checkpoint and restart. */
    public record Recovery(Duration checkpointInterval, int restartAttempts, Duration restartDelay) {
        /** Checkpoints every 300 ms: exactly-once output commits on them, so scenarios see results quickly. */
        public static final Recovery DEFAULT = new Recovery(Duration.ofMillis(300), 20, Duration.ofMillis(500));
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final MiniCluster cluster;
    private final JobID id;
    private final String name;

    private ChaosJob(MiniCluster cluster, JobID id, String name) {
        this.cluster = cluster;
        this.id = id;
        this.name = name;
    }

    /** The configuration of every chaos job; checkpoints (and savepoints) under {@code checkpoints}. */
    public static Configuration configuration(Path checkpoints, Recovery recovery) {
        Configuration conf = JobOptions.checkpointed(recovery.checkpointInterval(), checkpoints.toUri().toString());
        conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, checkpoints.resolve("savepoints").toUri().toString());
        // a failover while a checkpoint is in flight must not fail the job: it is what the scenarios provoke
        conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 1000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, recovery.restartAttempts());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, recovery.restartDelay());
        return conf;
    }

    /**
     * Wires a job with {@code wiring} and submits it to {@code cluster}.
     *
     * @param savepoint null for a fresh start, else the savepoint to restore (operator uids must match)
     */
    public static ChaosJob submit(MiniCluster cluster, Configuration conf, int parallelism, String name,
            String savepoint, Consumer<StreamExecutionEnvironment> wiring) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        wiring.accept(env);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(name);
        if (savepoint != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint, false));
        }
        try {
            JobID id = cluster.submitJob(graph).get().getJobID();
            return new ChaosJob(cluster, id, name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while submitting " + name, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not submit " + name + ": " + e.getCause(), e.getCause());
        }
    }

    public JobID id() {
        return id;
    }

    public JobStatus status() {
        return get(cluster.getJobStatus(id), Duration.ofSeconds(30));
    }

    /** Waits for the job to finish; throws with its cause when it failed for good. */
    public void awaitFinished(Duration timeout) {
        JobResult result = get(cluster.requestJobResult(id), timeout);
        if (!result.isSuccess()) {
            Throwable cause = result.getSerializedThrowable()
                    .map(t -> (Throwable) t.deserializeError(getClass().getClassLoader())).orElse(null);
            throw new IllegalStateException(name + " failed: " + cause, cause);
        }
    }

    /** Waits until the job's tasks are all running (after a start or a restart). */
    public void awaitRunning(Duration timeout) {
        Waits.until(timeout, name + " running", () -> status() == JobStatus.RUNNING);
    }

    /** Stops the job, taking a savepoint first; open runs stay in state (no drain). Returns the savepoint's path. */
    public String stopWithSavepoint(Path directory) {
        return get(cluster.stopWithSavepoint(id, directory.toUri().toString(), false, SavepointFormatType.CANONICAL),
                Duration.ofMinutes(2));
    }

    public void cancel() {
        get(cluster.cancelJob(id), Duration.ofSeconds(30));
        Waits.until(Duration.ofSeconds(60), name + " cancelled", () -> status().isGloballyTerminalState());
    }

    /**
     * The failures the job recovered from (or died of), as the JobManager recorded them: one entry per failover,
     * with its exception text. Read over the cluster's REST API, which keeps them after the job ended.
     */
    public List<String> failures() {
        try {
            URI rest = cluster.getRestAddress().get(10, TimeUnit.SECONDS);
            HttpRequest request = HttpRequest.newBuilder(rest.resolve("/jobs/" + id + "/exceptions?maxExceptions=1000"))
                    .timeout(Duration.ofSeconds(10)).GET().build();
            JsonNode body = Json.MAPPER.readTree(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body());
            List<String> failures = new ArrayList<>();
            for (JsonNode entry : body.path("exceptionHistory").path("entries")) {
                failures.add(entry.path("exceptionName").asText() + ": " + entry.path("stacktrace").asText());
            }
            return failures;
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the failures of " + name + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().toString(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the cluster within " + timeout, e);
        }
    }

    /** Polling with a deadline, for conditions that only the outside world can observe. */
    public static final class Waits {
        private static final long POLL_MS = 100;

        private Waits() {}

        public static void until(Duration timeout, String what, BooleanSupplier condition) {
            until(timeout, what, condition, () -> "");
        }

        /** @param state what was seen instead, for the message when the wait gives up */
        public static void until(Duration timeout, String what, BooleanSupplier condition, Supplier<String> state) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("gave up waiting for " + what + " after " + timeout + "; "
                            + state.get());
                }
                pause(Duration.ofMillis(POLL_MS));
            }
        }

        /** For the length of an outage: the one place a scenario waits on the clock by design. */
        public static void pause(Duration d) {
            try {
                Thread.sleep(d.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}

package io.raglog.bench.e2e;

import java.time.Duration;

/**
 * The LLM capacity C that docs/operations.md advises for a subtask: at least the target runs/s × (the LLM's latency +
 * the run's wait for the model), with headroom for the tail. The latency figures are taken at it, because below it
 * the async operator back-pressures the task thread and a generator call waits unread: that measures a capacity set
 * too low, which the scaling model already tells an operator not to do.
 */
final class AdvisedCapacity {

    /** Twice the runs in flight on average: slots fill in bursts, and a full operator stops the task thread. */
    static final int HEADROOM = 2;

    private AdvisedCapacity() {}

    /**
     * @param targetRunsPerSecond what the subtask can do without the LLM (the model-bound rate)
     * @param modelCpuMsPerRun the model's CPU per run, the least a run waits for its vectors
     */
    static int of(double targetRunsPerSecond, Duration llmLatency, double modelCpuMsPerRun) {
        double inFlight = targetRunsPerSecond * (llmLatency.toMillis() + modelCpuMsPerRun) / 1000.0;
        return Math.max(1, (int) Math.ceil(HEADROOM * inFlight));
    }
}

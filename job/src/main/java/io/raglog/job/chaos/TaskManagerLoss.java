package io.raglog.job.chaos;

import io.raglog.job.JobSettings;
import io.raglog.job.chaos.ChaosJob.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Task managers lost mid-stream: simulated runs go through the whole job while task managers are terminated one
 * after another; the job restarts from its last checkpoint each time. Every run must come out once: in the runs and
 * verdicts topics (read_committed), flagged ones in the debugging queue and in Elasticsearch.
 *
 * <p>The job is as wide as the cluster has slots (one per task manager), so every loss hits a running share of it. A
 * loss is timed by the job's committed output: some verdicts are out (a replay that repeated them would show), most
 * runs are still going through.
 */
public final class TaskManagerLoss {

    /** @param losses task managers terminated, spread evenly over the stream */
    public record Settings(int runs, long seed, int losses, int parallelism, JobSettings job, boolean elasticsearch,
            Duration timeout) {}

    private TaskManagerLoss() {}

    public static ChaosReport run(Rig rig, Settings s) throws Exception {
        Traffic traffic = Traffic.simulate(s.runs(), s.seed());
        Kafka kafka = rig.kafka();
        BoundedRun.During loseTaskManagers = (job, topics) -> {
            List<String> notes = new ArrayList<>();
            for (int loss = 1; loss <= s.losses(); loss++) {
                long progress = (long) traffic.runs() * loss / (2L * (s.losses() + 1));
                Waits.until(s.timeout(), "progress before loss " + loss,
                        () -> kafka.committedReach(topics.verdicts()) >= progress);
                int committed = kafka.readCommitted(topics.verdicts()).size();
                rig.loseTaskManager();
                notes.add("task manager lost with " + committed + " of " + traffic.runs() + " verdicts committed");
            }
            return notes;
        };
        return BoundedRun.run(rig, new BoundedRun.Settings("task manager loss", traffic, List.of(), s.job(),
                        s.parallelism(), s.elasticsearch(), s.timeout()), s.losses(),
                s.losses() + " task managers terminated mid-stream", loseTaskManagers).report();
    }
}

package io.raglog.cli.chaos;

import io.raglog.cli.chaos.ChaosJob.Waits;
import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.schemas.Label;
import io.raglog.schemas.Verdict;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Task managers lost mid-stream: simulated runs go through the whole job while task managers are terminated one
 * after another; the job restarts from its last checkpoint each time. Every run must come out once: in the runs and
 * verdicts topics (read_committed), flagged ones in the debugging queue and in Elasticsearch.
 *
 * <p>The job reads forever and the traffic arrives at the pace it happened ({@link Traffic#feed}), so a loss always
 * meets a job at work: a bounded job over traffic written up front can finish before its first checkpoint commits,
 * and then a "loss" hits nothing. The job is as wide as the cluster has slots (one per task manager), so every loss
 * hits a running share of it. A loss is timed by the job's committed output: some verdicts are out (a replay that
 * repeated them would show as duplicates) while traffic is still arriving.
 */
public final class TaskManagerLoss {

    /**
     * @param losses task managers terminated, spread evenly over the stream
     * @param speed how much faster than it happened the traffic is replayed
     */
    public record Settings(int runs, long seed, double perSecond, double speed, int losses, int parallelism,
            JobSettings job, boolean elasticsearch, Duration timeout) {}

    private TaskManagerLoss() {}

    public static ChaosReport run(Rig rig, Settings s) throws Exception {
        long start = System.nanoTime();
        Traffic traffic = Traffic.simulate(Traffic.arriving(s.runs(), s.seed(), s.perSecond()), c -> c);
        String name = "task-manager-loss-" + Long.toHexString(System.nanoTime());
        Topics topics = rig.topics(name);
        Kafka kafka = rig.kafka();
        kafka.produce(Ticks.before(traffic.end(), topics, kafka.partitionCount(topics.otlp()), traffic.otlpKeys(),
                List.of()));
        ElasticsearchConnection es = s.elasticsearch() ? rig.elasticsearchConnection() : null;
        ChaosJob job = ChaosJob.submit(rig.cluster(), ChaosJob.configuration(rig.work().resolve(name),
                ChaosJob.Recovery.DEFAULT), s.parallelism(), name, null,
                env -> rig.wire(env, topics, name, false, s.job(), es, name));
        Traffic.Feed feed = Traffic.feed(kafka, topics, traffic.messages(), s.speed());

        List<String> notes = new ArrayList<>();
        for (int loss = 1; loss <= s.losses(); loss++) {
            long progress = Math.max(1, (long) traffic.runs() * loss / (2L * (s.losses() + 1)));
            int n = loss;
            Waits.until(s.timeout(), "progress before loss " + n,
                    () -> kafka.committedReach(topics.verdicts()) >= progress);
            int committed = kafka.readCommitted(topics.verdicts()).size();
            double written = feed.progress();
            rig.loseTaskManager();
            notes.add(String.format("task manager lost with %d of %d verdicts committed, %.0f %% of the traffic written",
                    committed, traffic.runs(), written * 100));
        }
        feed.await(s.timeout());
        // one record per input partition an hour later in event time closes the last runs, as more traffic would
        kafka.produce(Ticks.after(traffic.end(), topics, kafka.partitionCount(topics.calls())));

        Set<String> expected = new HashSet<>(traffic.labels().stream().map(Label::runId).toList());
        SavepointRestore.awaitVerdicts(kafka, topics, expected, s.timeout());
        Elastic elastic = es == null ? null : new Elastic(es);
        String faultsIndex = Rig.faultsIndex(name);
        if (elastic != null) {
            Waits.until(s.timeout(), "every flagged run in Elasticsearch", () -> new HashSet<>(elastic.ids(faultsIndex))
                    .containsAll(Audit.flagged(kafka.read(topics.verdicts(), Verdict.class))));
        }
        job.cancel();

        return new ChaosReport("task manager loss", traffic.runs(), s.losses(),
                s.losses() + " task managers terminated mid-stream", job.failures().size(),
                Audit.outputs(kafka, topics, new Audit.Expected(expected, s.job().sampling(), List.of(), List.of()),
                        elastic, faultsIndex),
                Duration.ofNanos(System.nanoTime() - start), notes);
    }
}

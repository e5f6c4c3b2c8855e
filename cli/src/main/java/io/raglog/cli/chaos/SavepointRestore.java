package io.raglog.cli.chaos;

import io.raglog.cli.chaos.ChaosJob.Waits;
import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A job upgrade: the job reads half the traffic, is stopped with a savepoint (no drain: open runs stay open in state),
 * and a fresh job built by the same code (the same operator uids) starts from it and reads the rest. The runs that
 * were open at the savepoint, some of their calls read by the old job and the rest by the new one, must complete;
 * every run must come out once across both jobs.
 */
public final class SavepointRestore {

    public record Settings(int runs, long seed, int parallelism, JobSettings job, Duration timeout) {}

    /** Output that completes this many checkpoints after the last expected result is late enough to be a duplicate. */
    private static final int SETTLE_CHECKPOINTS = 5;

    static final double ARRIVALS_PER_SECOND = 1.0;

    private SavepointRestore() {}

    /**
     * Waits until every expected run has a committed verdict, is committed in the runs topic and, when flagged, in the
     * debugging queue, then a few checkpoints more, so that duplicates a replay would add have had their chance to be
     * committed too. The three topics are written by different tasks, each committing a checkpoint when it hears it
     * completed: a verdict committed says nothing of the others, and a job cancelled in between leaves theirs
     * uncommitted.
     */
    static void awaitVerdicts(Kafka kafka, Topics topics, Set<String> expected, Duration timeout) {
        Waits.until(timeout, "a verdict for each of " + expected.size() + " runs, each run and each flagged one queued",
                () -> kafka.committedReach(topics.verdicts()) >= expected.size()
                        && everyOutputOf(kafka, topics, expected),
                () -> String.format("verdicts topic: %d records written, committed up to %d, %d distinct runs"
                        + " readable; runs topic: %d written, committed up to %d, %d runs readable; dead letters: %s",
                        kafka.written(topics.verdicts()), kafka.committedReach(topics.verdicts()),
                        kafka.read(topics.verdicts(), Verdict.class).stream().map(Verdict::runId).distinct().count(),
                        kafka.written(topics.runs()), kafka.committedReach(topics.runs()),
                        kafka.read(topics.runs(), Run.class).size(),
                        kafka.read(topics.deadLetters(), io.raglog.schemas.DeadLetter.class).stream()
                                .map(d -> d.reason().length() > 120 ? d.reason().substring(0, 120) : d.reason())
                                .toList()));
        Waits.pause(ChaosJob.Recovery.DEFAULT.checkpointInterval().multipliedBy(SETTLE_CHECKPOINTS));
    }

    /** Every expected run has a verdict and is in the runs topic, and every flagged one is in the queue. */
    private static boolean everyOutputOf(Kafka kafka, Topics topics, Set<String> expected) {
        List<Verdict> verdicts = kafka.read(topics.verdicts(), Verdict.class).stream()
                .filter(v -> expected.contains(v.runId())).toList();
        if (verdicts.stream().map(Verdict::runId).distinct().count() != expected.size()) {
            return false;
        }
        Set<String> runs = new HashSet<>(kafka.read(topics.runs(), Run.class).stream().map(Run::runId).toList());
        Set<String> queued = new HashSet<>(kafka.read(topics.faults(), Verdict.class).stream().map(Verdict::runId)
                .toList());
        return runs.containsAll(expected) && queued.containsAll(Audit.flagged(verdicts));
    }

    public static ChaosReport run(Rig rig, Settings s) {
        long start = System.nanoTime();
        String name = "savepoint-" + Long.toHexString(System.nanoTime());
        Topics topics = rig.topics(name);
        Kafka kafka = rig.kafka();
        // questions a second apart: the runs span more event time than the job's tolerance for disorder, so some are
        // closed before the savepoint and some are open across it
        Traffic traffic = Traffic.simulate(Traffic.arriving(s.runs(), s.seed(), ARRIVALS_PER_SECOND),
                UnaryOperator.identity());
        Instant cut = traffic.middle();
        List<String> open = traffic.openAt(cut).stream().map(Label::runId).toList();
        Traffic.produce(kafka, topics, traffic.before(cut));

        var conf = ChaosJob.configuration(rig.work().resolve(name), ChaosJob.Recovery.DEFAULT);
        ChaosJob before = ChaosJob.submit(rig.cluster(), conf, s.parallelism(), name + " (before)", null,
                env -> rig.wire(env, topics, name, false, s.job(), null, name));
        // every message before the cut read and its offset in a completed checkpoint
        Waits.until(s.timeout(), "the first half read", () -> kafka.caughtUp(name, List.of(topics.calls(),
                topics.otlp())));
        String savepoint = before.stopWithSavepoint(rig.work().resolve(name).resolve("savepoints"));
        Set<String> closedBefore = new HashSet<>(kafka.readSettled(topics.runs(), Run.class).stream().map(Run::runId)
                .toList());

        Traffic.produce(kafka, topics, traffic.from(cut));
        kafka.produce(Ticks.after(traffic.end(), topics, kafka.partitionCount(topics.calls())));
        ChaosJob after = ChaosJob.submit(rig.cluster(), conf, s.parallelism(), name + " (after)", savepoint,
                env -> rig.wire(env, topics, name, false, s.job(), null, name));
        Set<String> expected = new HashSet<>(traffic.labels().stream().map(Label::runId).toList());
        awaitVerdicts(kafka, topics, expected, s.timeout());
        after.cancel();

        List<Run> runs = kafka.readSettled(topics.runs(), Run.class);
        List<String> completedAfter = runs.stream()
                .filter(r -> !r.incomplete() && !closedBefore.contains(r.runId()) && open.contains(r.runId()))
                .map(Run::runId).toList();
        List<Delivery> deliveries = new ArrayList<>(Audit.outputs(kafka, topics, Audit.Expected.everyRun(expected), null, null));
        deliveries.add(Delivery.of("runs open at the savepoint, completed after it", open, completedAfter));
        List<String> notes = List.of(String.format("savepoint after %d of %d runs closed, %d open; %s",
                closedBefore.size(), traffic.runs(), open.size(), savepoint));
        return new ChaosReport("savepoint restore", traffic.runs(), 1, "stopped with a savepoint mid-stream, "
                + "restored into a fresh job", before.failures().size() + after.failures().size(), deliveries,
                Duration.ofNanos(System.nanoTime() - start), notes);
    }
}

package io.raglog.cli.chaos;

import io.raglog.cli.chaos.ChaosJob.Waits;
import io.raglog.feedback.FeedbackSettings;
import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * User feedback joined to verdicts while task managers are lost: one feedback record per simulated run, given up to
 * the join's whole wait after its run in event time (the last just short of it), half written before the traffic
 * (each waits in state for its verdict) and half after it (each finds its verdict waiting). Every record must be
 * joined exactly once in {@code run-feedback} (read_committed), none left unjoined, and every run users disliked that
 * raglog passed must reach the debugging queue once, with the reason {@code user_feedback}.
 */
public final class FeedbackUnderLoss {

    public static final String JOINED = "feedback joined";
    public static final String NOT_JOINED = "feedback not joined";
    public static final String DISLIKED_QUEUE = "queue: disliked, raglog passed";
    public static final String RAGLOG_QUEUE = "queue: raglog's own";

    /** Feedback given this close to the end of the wait still joins: the margin covers a run's own length. */
    private static final Duration MARGIN = Duration.ofMinutes(5);

    /**
     * @param losses task managers terminated while the traffic goes through
     * @param job its feedback settings say how late feedback may be; every run is checked, so every run has a verdict
     */
    public record Settings(int runs, long seed, double perSecond, double speed, int losses, int parallelism,
            JobSettings job, Duration timeout) {}

    private FeedbackUnderLoss() {}

    public static ChaosReport run(Rig rig, Settings s) throws Exception {
        long start = System.nanoTime();
        Traffic traffic = Traffic.simulate(Traffic.arriving(s.runs(), s.seed(), s.perSecond()), c -> c);
        String name = "feedback-under-loss-" + Long.toHexString(System.nanoTime());
        Topics topics = rig.topics(name);
        Kafka kafka = rig.kafka();
        // a run never checked has no verdict to join: every run is checked here, so every record must join
        JobSettings job = s.job().withSampling(SamplingPolicy.CHECK_EVERYTHING)
                .withFeedback(s.job().feedback() == null ? FeedbackSettings.DEFAULTS : s.job().feedback());
        Duration latest = job.feedback().keepVerdict().minus(MARGIN);
        List<Feedback> feedback = feedback(traffic.labels(), latest);
        List<Feedback> first = feedback.subList(0, feedback.size() / 2);
        List<Feedback> after = feedback.subList(feedback.size() / 2, feedback.size());

        kafka.produce(Ticks.before(traffic.end(), topics, kafka.partitionCount(topics.otlp()), traffic.otlpKeys(),
                first.stream().map(Feedback::pipeline).toList()));
        ChaosJob chaosJob = ChaosJob.submit(rig.cluster(), ChaosJob.configuration(rig.work().resolve(name),
                ChaosJob.Recovery.DEFAULT), s.parallelism(), name, null,
                env -> rig.wire(env, topics, name, false, job, null, name));
        kafka.produce(records(topics, first));
        Traffic.Feed feed = Traffic.feed(kafka, topics, traffic.messages(), s.speed());

        List<String> notes = new ArrayList<>();
        for (int loss = 1; loss <= s.losses(); loss++) {
            long progress = Math.max(1, (long) traffic.runs() * loss / (2L * (s.losses() + 1)));
            int n = loss;
            Waits.until(s.timeout(), "progress before loss " + n,
                    () -> kafka.committedReach(topics.verdicts()) >= progress);
            int joined = kafka.read(topics.runFeedback(), RunFeedback.class).size();
            rig.loseTaskManager();
            notes.add(String.format("task manager lost with %d of %d feedback records joined, %.0f %% of the "
                    + "traffic written", joined, feedback.size(), feed.progress() * 100));
        }
        feed.await(s.timeout());
        // one record per input partition an hour later in event time closes the last runs, as more traffic would
        kafka.produce(Ticks.after(traffic.end(), topics, kafka.partitionCount(topics.calls())));
        Set<String> expected = new HashSet<>(traffic.labels().stream().map(Label::runId).toList());
        SavepointRestore.awaitVerdicts(kafka, topics, expected, s.timeout());
        kafka.produce(records(topics, after));
        // the queue's copies of disliked runs are written by a task of their own, committing apart from the join's:
        // both are awaited before the job is cancelled, or a commit still to come would be lost with it
        Waits.until(s.timeout(), "a joined record for each of " + feedback.size() + " feedback records, and each "
                        + "disliked run raglog passed in the queue",
                () -> written(kafka.read(topics.runFeedback(), RunFeedback.class)).stream()
                        .map(r -> r.feedback().feedbackId()).distinct().count() >= feedback.size()
                        && dislikedQueued(kafka.read(topics.faults(), Verdict.class))
                                .containsAll(dislikedPassed(kafka.read(topics.verdicts(), Verdict.class),
                                        traffic.labels(), feedback)));
        chaosJob.cancel();

        List<Delivery> deliveries = new ArrayList<>(Audit.outputs(kafka, topics, new Audit.Expected(expected,
                job.sampling(), List.of(), List.of()), null, null).stream()
                .filter(d -> !d.output().equals(Audit.FAULTS)).toList());
        List<RunFeedback> joined = kafka.readSettled(topics.runFeedback(), RunFeedback.class);
        deliveries.addAll(feedbackDeliveries(kafka, topics, written(joined), traffic.labels(), feedback));
        long reAsks = joined.size() - written(joined).size();
        notes.add(String.format("%d re-asks the job found in the traffic itself, joined beside the written feedback "
                + "(not audited against it)", reAsks));
        notes.add(String.format("%d feedback records, given up to %s after their run in event time; %d written "
                + "before the traffic (waiting for their verdict), %d after it (their verdict waiting)",
                feedback.size(), latest, first.size(), after.size()));
        return new ChaosReport("feedback join under task-manager loss", traffic.runs(), s.losses(),
                s.losses() + " task managers terminated mid-stream", chaosJob.failures().size(), deliveries,
                Duration.ofNanos(System.nanoTime() - start), notes);
    }

    /**
     * The joined records of the feedback the scenario wrote: the job's re-ask detection (on by default) may find a
     * re-ask among the simulated questions and join it too, as feedback nobody wrote.
     */
    private static List<RunFeedback> written(List<RunFeedback> joined) {
        return joined.stream().filter(r -> r.feedback().kind() != FeedbackKind.RE_ASK).toList();
    }

    /**
     * One record per run, by its run id: a thumbs-down on every other run, a thumbs-up on the rest; lateness spread
     * evenly from none to {@code latest}, so the last records come just short of the wait.
     */
    static List<Feedback> feedback(List<Label> labels, Duration latest) {
        List<Feedback> out = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            Label l = labels.get(i);
            Duration late = labels.size() == 1 ? latest : latest.multipliedBy(i).dividedBy(labels.size() - 1);
            out.add(new Feedback(Feedback.SCHEMA_V1, "chaos-feedback-" + i, l.pipeline(), FeedbackKind.THUMBS,
                    i % 2 == 0 ? Feedback.THUMBS_DOWN : Feedback.THUMBS_UP, null, null, null,
                    l.startedAt().plus(late), l.runId(), null, null, null, "raglog-chaos"));
        }
        return out;
    }

    /** Runs users disliked (the feedback's i-th record is about the i-th label's run) that raglog did not flag. */
    private static Set<String> dislikedPassed(List<Verdict> verdicts, List<Label> labels, List<Feedback> feedback) {
        Set<String> disliked = new HashSet<>();
        for (int i = 0; i < feedback.size(); i++) {
            if (feedback.get(i).negative()) {
                disliked.add(labels.get(i).runId());
            }
        }
        disliked.removeAll(Audit.flagged(verdicts));
        return disliked;
    }

    /** The queue's copies of disliked runs: they carry the user's feedback as their reason. */
    private static List<String> dislikedQueued(List<Verdict> queue) {
        return queue.stream()
                .filter(v -> v.userFeedback() != null && v.queueReasons().contains(Verdict.USER_FEEDBACK))
                .map(Verdict::runId).toList();
    }

    private static List<Kafka.Record> records(Topics topics, List<Feedback> feedback) {
        return feedback.stream().map(f -> new Kafka.Record(topics.feedback(), null, f.pipeline(),
                f.at().toEpochMilli(), Json.writeBytes(f))).toList();
    }

    /**
     * Each feedback record joined once and none left unjoined; the queue holds raglog's own flagged runs once and each
     * disliked run raglog passed once, told apart by the user feedback the latter carry.
     *
     * @param joined the joined records of the feedback the scenario wrote (read once, after the job)
     */
    private static List<Delivery> feedbackDeliveries(Kafka kafka, Topics topics, List<RunFeedback> joined,
            List<Label> labels, List<Feedback> feedback) {
        List<Verdict> verdicts = kafka.readSettled(topics.verdicts(), Verdict.class);
        List<Verdict> queue = kafka.readSettled(topics.faults(), Verdict.class);
        Set<String> raglogQueued = Audit.flagged(verdicts);
        Set<String> disliked = dislikedPassed(verdicts, labels, feedback);
        return List.of(
                Delivery.of(JOINED, feedback.stream().map(Feedback::feedbackId).toList(), joined.stream()
                        .filter(r -> RunFeedback.JOINED.equals(r.outcome())).map(r -> r.feedback().feedbackId())
                        .toList()),
                Delivery.of(NOT_JOINED, List.of(), joined.stream()
                        .filter(r -> !RunFeedback.JOINED.equals(r.outcome())).map(r -> r.feedback().feedbackId())
                        .toList()),
                Delivery.of(DISLIKED_QUEUE, disliked, dislikedQueued(queue)),
                Delivery.of(RAGLOG_QUEUE, raglogQueued, queue.stream().filter(v -> v.userFeedback() == null)
                        .map(Verdict::runId).toList()));
    }
}

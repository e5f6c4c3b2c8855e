package io.raglog.feedback;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Verdict;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Joins user feedback to verdicts in event time, keyed by pipeline: a run id, a run hint and a trace id each give the
 * run id ({@link RunLocator}), and a question needs the pipeline's runs to search, so the pipeline is the one key both
 * sides always share. Either side may come first; each waits in state for the other up to its
 * {@link FeedbackSettings} wait. Out: one {@link RunFeedback} per feedback record, joined or {@code no_verdict}; on
 * side outputs, each queued run's document as it should now read, and once per run, a run users disliked that raglog
 * had passed.
 *
 * <p>State per pipeline: the verdicts held by run id, an index of them by question, the feedback waiting by run id and
 * by question, and the work due at each timer's time. Every entry has a timer that removes it, so state is bounded by
 * the waits: a pipeline's runs of the last {@code keep_verdict} and its unjoined feedback of the last
 * {@code wait_for_verdict}. Outputs are emitted only from elements and timers, which checkpoints cover with the
 * state: after a restore nothing is emitted twice, and the Kafka sinks' transactions do the rest.
 */
public class FeedbackJoinFunction extends KeyedCoProcessFunction<String, Verdict, Feedback, RunFeedback> {

    private static final long serialVersionUID = 1L;

    /**
     * Each queued run's document as it should now read: when its verdict comes (with any feedback that came first)
     * and again each time its feedback changes. From this one operator, so a run's documents are written in order and
     * the last written is the latest.
     */
    public static final OutputTag<Verdict> QUEUE_DOCUMENTS =
            new OutputTag<>("queue-documents", JacksonTypeInfo.of(Verdict.class));
    /** A run raglog passed that users disliked, once, at its first negative feedback: for the debugging queue. */
    public static final OutputTag<Verdict> DISLIKED_BUT_PASSED =
            new OutputTag<>("disliked-but-passed", JacksonTypeInfo.of(Verdict.class));

    private final FeedbackSettings settings;

    private transient MapState<String, HeldVerdict> verdicts;
    private transient MapState<String, QuestionRuns> runsByQuestion;
    private transient MapState<String, WaitingFeedback> waitingByRun;
    private transient MapState<String, WaitingFeedback> waitingByQuestion;
    private transient MapState<Long, DueWork> due;
    private transient Counter joined;
    private transient Counter noVerdict;
    private transient Counter repeated;

    public FeedbackJoinFunction(FeedbackSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        verdicts = getRuntimeContext().getMapState(new MapStateDescriptor<>("feedback-verdicts", Types.STRING,
                JacksonTypeInfo.of(HeldVerdict.class)));
        runsByQuestion = getRuntimeContext().getMapState(new MapStateDescriptor<>("feedback-runs-by-question",
                Types.STRING, JacksonTypeInfo.of(QuestionRuns.class)));
        waitingByRun = getRuntimeContext().getMapState(new MapStateDescriptor<>("feedback-waiting-by-run",
                Types.STRING, JacksonTypeInfo.of(WaitingFeedback.class)));
        waitingByQuestion = getRuntimeContext().getMapState(new MapStateDescriptor<>("feedback-waiting-by-question",
                Types.STRING, JacksonTypeInfo.of(WaitingFeedback.class)));
        due = getRuntimeContext().getMapState(new MapStateDescriptor<>("feedback-due", Types.LONG,
                JacksonTypeInfo.of(DueWork.class)));
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("feedback");
        joined = group.counter("feedback_joined");
        noVerdict = group.counter("feedback_no_verdict");
        repeated = group.counter("feedback_repeated");
    }

    @Override
    public void processElement1(Verdict verdict, Context ctx, Collector<RunFeedback> out) throws Exception {
        if (verdicts.contains(verdict.runId())) {
            return; // the same run scored again (its calls replayed): the first verdict already holds its feedback
        }
        long at = ctx.timestamp() != null ? ctx.timestamp() : verdict.scoredAt().toEpochMilli();
        HeldVerdict held = HeldVerdict.of(verdict, at);
        // held for feedback until the wait after its run is over, then dropped
        schedule(ctx, at + settings.keepVerdict().toMillis(),
                new DueWork.Item(DueWork.Kind.VERDICT_EXPIRES, verdict.runId(), null));
        String question = RunLocator.questionKey(verdict.question());
        if (question != null) {
            runsByQuestion.put(question, orNone(runsByQuestion.get(question)).plus(verdict.runId(), at));
        }
        verdicts.put(verdict.runId(), held);
        WaitingFeedback early = waitingByRun.get(verdict.runId());
        if (early != null) {
            waitingByRun.remove(verdict.runId());
            for (Feedback f : early.records()) {
                held = join(held, f, RunLocator.of(f).matchedBy(), ctx, out);
            }
        }
        if (question != null) {
            held = joinLateQuestionFeedback(question, held, ctx, out);
        }
        if (held.current().queued()) {
            ctx.output(QUEUE_DOCUMENTS, held.current());
        }
    }

    @Override
    public void processElement2(Feedback f, Context ctx, Collector<RunFeedback> out) throws Exception {
        RunLocator locator = RunLocator.of(f);
        long at = f.at().toEpochMilli();
        if (locator.byQuestion()) {
            WaitingFeedback waiting = orNone(waitingByQuestion.get(locator.question()));
            if (waiting.holds(f.feedbackId())) {
                repeated.inc();
                return;
            }
            waitingByQuestion.put(locator.question(), waiting.plus(f));
            // the nearest run can be chosen only once event time has passed every run the window allows
            schedule(ctx, at + settings.questionWindow().toMillis(),
                    new DueWork.Item(DueWork.Kind.QUESTION_SEARCH, locator.question(), f.feedbackId()));
            schedule(ctx, at + settings.waitForVerdict().toMillis(),
                    new DueWork.Item(DueWork.Kind.QUESTION_EXPIRES, locator.question(), f.feedbackId()));
            return;
        }
        HeldVerdict held = verdicts.get(locator.runId());
        if (held != null) {
            HeldVerdict now = join(held, f, locator.matchedBy(), ctx, out);
            if (now != held) {
                documentIfQueued(now, ctx);
            }
            return;
        }
        WaitingFeedback waiting = orNone(waitingByRun.get(locator.runId()));
        if (waiting.holds(f.feedbackId())) {
            repeated.inc();
            return;
        }
        waitingByRun.put(locator.runId(), waiting.plus(f));
        // the verdict may come later (feedback raced it, or the run is still being checked); not forever
        schedule(ctx, at + settings.waitForVerdict().toMillis(),
                new DueWork.Item(DueWork.Kind.FEEDBACK_EXPIRES, locator.runId(), f.feedbackId()));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<RunFeedback> out) throws Exception {
        DueWork work = due.get(timestamp);
        if (work == null) {
            return;
        }
        due.remove(timestamp);
        for (DueWork.Item item : work.items()) {
            switch (item.kind()) {
                case VERDICT_EXPIRES -> dropVerdict(item.key());
                case FEEDBACK_EXPIRES -> expire(waitingByRun, item, out);
                case QUESTION_SEARCH -> searchQuestion(item, ctx, out);
                case QUESTION_EXPIRES -> expire(waitingByQuestion, item, out);
            }
        }
    }

    /**
     * Counts the feedback into the run's summary and says so, once per feedback record: a record already joined
     * returns {@code held} itself.
     */
    private HeldVerdict join(HeldVerdict held, Feedback f, String matchedBy, Context ctx, Collector<RunFeedback> out)
            throws Exception {
        if (held.joined(f)) {
            repeated.inc();
            return held;
        }
        HeldVerdict now = held.with(f);
        verdicts.put(now.verdict().runId(), now);
        joined.inc();
        out.collect(RunFeedback.joined(held.verdict(), now.current(), matchedBy, f));
        if (!held.verdict().queued() && !held.feedback().disliked() && now.feedback().disliked()) {
            ctx.output(DISLIKED_BUT_PASSED, now.current());
        }
        return now;
    }

    private static void documentIfQueued(HeldVerdict held, Context ctx) {
        if (held.current().queued()) {
            ctx.output(QUEUE_DOCUMENTS, held.current());
        }
    }

    private void dropVerdict(String runId) throws Exception {
        HeldVerdict held = verdicts.get(runId);
        if (held == null) {
            return;
        }
        verdicts.remove(runId);
        String question = RunLocator.questionKey(held.verdict().question());
        if (question != null) {
            QuestionRuns left = orNone(runsByQuestion.get(question)).without(runId);
            if (left.runs().isEmpty()) {
                runsByQuestion.remove(question);
            } else {
                runsByQuestion.put(question, left);
            }
        }
    }

    /** Feedback that found no verdict in its wait leaves as no_verdict: every record has exactly one outcome. */
    private void expire(MapState<String, WaitingFeedback> waitingBy, DueWork.Item item, Collector<RunFeedback> out)
            throws Exception {
        WaitingFeedback waiting = waitingBy.get(item.key());
        Feedback f = waiting == null ? null : waiting.find(item.feedbackId());
        if (f == null) {
            return; // joined meanwhile
        }
        putOrRemove(waitingBy, item.key(), waiting.without(item.feedbackId()));
        noVerdict.inc();
        out.collect(RunFeedback.noVerdict(f));
    }

    private void searchQuestion(DueWork.Item item, Context ctx, Collector<RunFeedback> out) throws Exception {
        WaitingFeedback waiting = waitingByQuestion.get(item.key());
        Feedback f = waiting == null ? null : waiting.find(item.feedbackId());
        if (f == null) {
            return;
        }
        String runId = orNone(runsByQuestion.get(item.key()))
                .nearest(f.at().toEpochMilli(), settings.questionWindow().toMillis());
        if (runId == null) {
            return; // stays waiting: a verdict held back upstream may still come (joinLateQuestionFeedback)
        }
        putOrRemove(waitingByQuestion, item.key(), waiting.without(f.feedbackId()));
        documentIfQueued(join(verdicts.get(runId), f, "question", ctx, out), ctx);
    }

    /**
     * A verdict that arrives after a question's search found nothing (its run was held back upstream past the
     * watermark) still joins the feedback it is near enough to. Feedback whose search is still ahead is left for it,
     * so it gets the nearest run, not the first.
     */
    private HeldVerdict joinLateQuestionFeedback(String question, HeldVerdict held, Context ctx,
            Collector<RunFeedback> out) throws Exception {
        WaitingFeedback waiting = waitingByQuestion.get(question);
        if (waiting == null) {
            return held;
        }
        long window = settings.questionWindow().toMillis();
        long watermark = ctx.timerService().currentWatermark();
        WaitingFeedback left = waiting;
        for (Feedback f : waiting.records()) {
            long fAt = f.at().toEpochMilli();
            if (watermark >= fAt + window && Math.abs(held.at() - fAt) <= window) {
                held = join(held, f, "question", ctx, out);
                left = left.without(f.feedbackId());
            }
        }
        putOrRemove(waitingByQuestion, question, left);
        return held;
    }

    private void schedule(Context ctx, long time, DueWork.Item item) throws Exception {
        DueWork work = due.get(time);
        due.put(time, (work == null ? DueWork.NONE : work).plus(item));
        ctx.timerService().registerEventTimeTimer(time);
    }

    private static void putOrRemove(MapState<String, WaitingFeedback> state, String key, WaitingFeedback value)
            throws Exception {
        if (value.records().isEmpty()) {
            state.remove(key);
        } else {
            state.put(key, value);
        }
    }

    private static WaitingFeedback orNone(WaitingFeedback w) {
        return w == null ? WaitingFeedback.NONE : w;
    }

    private static QuestionRuns orNone(QuestionRuns r) {
        return r == null ? QuestionRuns.NONE : r;
    }
}

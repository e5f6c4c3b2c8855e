package io.raglog.reask;

import io.raglog.checks.Embedder;
import io.raglog.checks.SharedEmbedder;
import io.raglog.flink.JacksonTypeInfo;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Finds re-asks: a run whose question paraphrases one its user asked a few minutes before ({@link ReAskRules}). Each
 * {@link ReAsk} marks the earlier run as likely disliked — the one implicit user signal visible in the calls alone.
 *
 * <p>Meant to be wired beside the checks, on complete runs, keyed by {@link #KEY} (pipeline and session; pipeline alone
 * for runs without a session):
 *
 * <pre>{@code
 * DataStream<ReAsk> reAsks = runs
 *         .flatMap((Run run, Collector<AskedQuestion> out) -> {   // incomplete runs have no question to compare
 *             AskedQuestion q = AskedQuestion.of(run);
 *             if (q != null) out.collect(q);
 *         }).returns(ReAskFunction.INPUT)
 *         .keyBy(ReAskFunction.KEY, Types.STRING)
 *         .process(new ReAskFunction(ReAskSettings.defaults())).returns(ReAskFunction.OUTPUT)
 *         .uid("re-asks").name("re-asks");
 * }</pre>
 *
 * The session of a run is {@code Run.session}: run assembly takes it from the first of the run's calls that carries
 * one ({@code CallEvent.session}: the proxy's session header, the span attribute {@code session.id}). The stream needs
 * event time (the run's start): the windows and the state's expiry are event-time. Which output to send re-asks to
 * (a side output beside the verdicts, a topic of their own, a join that marks the earlier run's verdict) is left to
 * the wiring: the function emits {@link ReAsk} records and nothing else.
 *
 * <p>State per key: the last few questions ({@link RecentQuestions}, at most {@link ReAskSettings#memory} of them,
 * none older than the window), and one event-time timer, at the newest question's expiry, that clears it: a session
 * that goes quiet leaves nothing behind. The embedding model, when the score uses it, is the JVM's shared MiniLM,
 * acquired once per task in {@link #open} and called on the task thread: one new question per run, the earlier ones
 * cached.
 */
public class ReAskFunction extends KeyedProcessFunction<String, AskedQuestion, ReAsk> {

    private static final long serialVersionUID = 1L;

    /** The key ({@link AskedQuestion#key()}): pipeline and session, or pipeline alone for a run without a session. */
    public static final KeySelector<AskedQuestion, String> KEY = AskedQuestion::key;
    public static final TypeInformation<AskedQuestion> INPUT = JacksonTypeInfo.of(AskedQuestion.class);
    public static final TypeInformation<ReAsk> OUTPUT = JacksonTypeInfo.of(ReAsk.class);

    private final ReAskSettings settings;
    private final long embeddingCacheEntries;

    private transient ValueState<RecentQuestions> recent;
    private transient ReAskRules rules;
    private transient boolean holdsEmbedder;
    private transient Counter reAsks;
    private transient Counter asked;

    /** With the shared embedder's default cache, when the settings weigh embeddings at all. */
    public ReAskFunction(ReAskSettings settings) {
        this(settings, SharedEmbedder.DEFAULT_CACHE_ENTRIES);
    }

    public ReAskFunction(ReAskSettings settings, long embeddingCacheEntries) {
        this.settings = settings;
        this.embeddingCacheEntries = embeddingCacheEntries;
    }

    @Override
    public void open(OpenContext openContext) {
        recent = getRuntimeContext().getState(new ValueStateDescriptor<>("re-ask-recent-questions",
                JacksonTypeInfo.of(RecentQuestions.class)));
        Embedder embedder = null;
        if (settings.embeddingWeight() > 0) {
            // loaded once per task, shared with the checks of the same JVM
            embedder = SharedEmbedder.acquire(embeddingCacheEntries);
            holdsEmbedder = true;
        }
        rules = new ReAskRules(settings, new QuestionSimilarity(embedder, settings.embeddingWeight()));
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("reask");
        asked = group.counter("questions");
        reAsks = group.counter("reasks");
    }

    @Override
    public void processElement(AskedQuestion question, Context ctx, Collector<ReAsk> out) throws Exception {
        asked.inc();
        RecentQuestions before = recent.value() == null ? RecentQuestions.empty() : recent.value();
        ReAskRules.Outcome outcome = rules.consider(before, question);
        for (ReAsk r : outcome.reAsks()) {
            reAsks.inc();
            out.collect(r);
        }
        RecentQuestions after = outcome.remembered();
        if (after.isEmpty()) {
            return;
        }
        recent.update(after);
        // One timer per key: the previous one moves to the newest question's expiry, so timers stay as few as keys.
        Duration window = settings.window(question.hasSession());
        Instant previous = before.expiresAt(window);
        Instant next = after.expiresAt(window);
        if (previous != null && !previous.equals(next)) {
            ctx.timerService().deleteEventTimeTimer(previous.toEpochMilli());
        }
        ctx.timerService().registerEventTimeTimer(next.toEpochMilli());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ReAsk> out) throws Exception {
        // Fired at the newest question's expiry: nothing left can be re-asked within the window.
        RecentQuestions held = recent.value();
        if (held == null) {
            return;
        }
        Instant expiry = held.expiresAt(settings.window(AskedQuestion.isSessionKey(ctx.getCurrentKey())));
        if (expiry == null || expiry.toEpochMilli() <= timestamp) {
            recent.clear();
        }
    }

    @Override
    public void close() throws Exception {
        if (holdsEmbedder) {
            holdsEmbedder = false;
            SharedEmbedder.release();
        }
        super.close();
    }
}

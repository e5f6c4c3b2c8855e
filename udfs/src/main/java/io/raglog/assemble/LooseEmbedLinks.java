package io.raglog.assemble;

import io.raglog.schemas.Stage;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The embedding call of a run that the strong links left without one: its text is not the rewrite's or the question's
 * verbatim (an embed fault, an instruction prefix) and no retrieval call carries its vector (an in-process vector
 * store). Pure logic, called by {@link RunLinker} once a run's strong and passage links are in.
 *
 * <p>Two ways, the first that finds one wins. By near text ({@link NearText}): the embedding call whose text follows
 * the run's rewrite or question best, above the floor, and that follows no other open run better (of two open runs
 * that score the same, the nearer in time takes it, as exact linking does for identical calls). By order in time, as
 * a last resort: the one embedding call that lies between the run's rewrite and its next stage, when no other open run
 * without an embedding could have sent it and no text links it anywhere.
 */
final class LooseEmbedLinks {

    /** Scores closer than this are a tie: time decides. */
    private static final double TIE = 1e-9;
    /**
     * How far a call's recorded end may come after its client had the reply: a recording proxy stamps the end once
     * the reply is written and flushed, and the client may send its next call first (a LangChain.js client's
     * embedding call started 2 ms before its rewrite's recorded end, and fell out of its run).
     */
    static final long RECORDED_END_LAG_MS = 50;

    private LooseEmbedLinks() {}

    /**
     * @param members the run so far (its generator included)
     * @param candidates the open calls that may still join it, nearest in time first
     * @param open every open call of the key not yet in a closed run (members included), the other runs' among them
     * @return the embedding call that belongs to the run, or null
     */
    static CallSignals find(List<CallSignals> members, List<CallSignals> candidates, List<CallSignals> open) {
        return find(members, members, candidates, open);
    }

    /**
     * The same for one search of an agent that searched more than once: {@code turn} is its rewrite call and the
     * run's calls that came between it and the agent's next turn, {@code run} the whole run so far, whose other turns
     * are no rivals; {@code candidates} are those of the turn's time alone.
     */
    static CallSignals find(List<CallSignals> turn, List<CallSignals> run, List<CallSignals> candidates,
            List<CallSignals> open) {
        Set<CallSignals> inRun = Collections.newSetFromMap(new IdentityHashMap<>());
        inRun.addAll(run);
        CallSignals byText = byNearText(turn, inRun, candidates, open);
        return byText != null ? byText : byTimeOrder(turn, inRun, candidates, open);
    }

    private static CallSignals byNearText(List<CallSignals> members, Set<CallSignals> inRun,
            List<CallSignals> candidates, List<CallSignals> open) {
        // nearness is measured to the run's rewrite (an embedding follows it at once), or without one to its generator
        Stage anchor = hasStage(members, Stage.REWRITE) ? Stage.REWRITE : Stage.GENERATE;
        CallSignals best = null;
        double bestScore = 0;
        long bestGap = Long.MAX_VALUE;
        for (CallSignals c : candidates) {
            if (c.stage != Stage.EMBED || c.failed() || c.consumedQueries.isEmpty()) {
                continue;
            }
            double score = NearText.best(c, members);
            if (score < NearText.FLOOR) {
                continue;
            }
            long gap = gap(c, members, anchor);
            if (gap == Long.MAX_VALUE) {
                continue; // not after the run's rewrite, or not before its generator: another run's
            }
            if (followsAnotherRunBetter(c, score, gap, anchor, inRun, open)) {
                continue;
            }
            if (score > bestScore + TIE || (Math.abs(score - bestScore) <= TIE && gap < bestGap)) {
                best = c;
                bestScore = score;
                bestGap = gap;
            }
        }
        return best;
    }

    /**
     * Whether an open call of another run that still lacks an embedding carries a text {@code c} follows better, or as
     * well and nearer in time. Only a call {@code c} can have come from counts: a rewrite that had its output before
     * {@code c} started, a generator that started after {@code c} ended. A run begun later is no rival, however well
     * its text fits: a truncated "rankine cycle" fits "rankine cycle sometimes called" better than the rewrite it was
     * cut from, and a question asked two seconds later kept it from its run.
     */
    private static boolean followsAnotherRunBetter(CallSignals c, double score, long gap, Stage anchor,
            Set<CallSignals> inRun, List<CallSignals> open) {
        for (CallSignals o : open) {
            if (inRun.contains(o) || !carriesQuestion(o)) {
                continue;
            }
            long otherGap = gap(c, o);
            if (otherGap == Long.MAX_VALUE) {
                continue;
            }
            double other = NearText.best(c, List.of(o));
            boolean better = other > score + TIE
                    || (Math.abs(other - score) <= TIE && o.stage == anchor && otherGap < gap);
            if (better && lacksEmbedding(o, c, open)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The last resort: the one embedding call between the run's rewrite and its next stage that no text links to
     * another run, when no other open run (a rewrite whose run has no later stage before the call ended) could have sent it.
     */
    private static CallSignals byTimeOrder(List<CallSignals> members, Set<CallSignals> inRun,
            List<CallSignals> candidates, List<CallSignals> open) {
        CallSignals rewrite = null;
        long next = Long.MAX_VALUE;
        for (CallSignals m : members) {
            if (m.stage == Stage.REWRITE && !m.failed()) {
                rewrite = m;
            } else if (m.stage.ordinal() > Stage.EMBED.ordinal()) {
                next = Math.min(next, m.startMs);
            }
        }
        if (rewrite == null) {
            return null; // no left edge: an in-flight run whose calls are not all logged yet could own the call
        }
        CallSignals found = null;
        for (CallSignals c : candidates) {
            if (c.stage != Stage.EMBED || c.failed() || c.startMs < rewrite.endMs - RECORDED_END_LAG_MS
                    || c.endMs - RECORDED_END_LAG_MS > next) {
                continue;
            }
            if (linkedElsewhere(c, inRun, open)) {
                continue; // another run's, by content: with dozens of runs in flight the window holds theirs too
            }
            if (found != null) {
                return null; // two unclaimed embedding calls in the window: which one is the run's is not known
            }
            found = c;
        }
        if (found == null || anotherRunWasOpen(found, inRun, open)) {
            return null;
        }
        return found;
    }

    /** Whether any other open call links to {@code c} by content: then {@code c} is not lone. */
    private static boolean linkedElsewhere(CallSignals c, Set<CallSignals> inRun, List<CallSignals> open) {
        for (CallSignals o : open) {
            if (o == c || inRun.contains(o)) {
                continue;
            }
            if (ContentLinks.strong(o, c) || carriesQuestion(o) && gap(c, o) != Long.MAX_VALUE
                    && NearText.best(c, List.of(o)) >= NearText.FLOOR) {
                return true;
            }
        }
        return false;
    }

    /** Another open run's rewrite ended before {@code c} started, and nothing of that run after it began before. */
    private static boolean anotherRunWasOpen(CallSignals c, Set<CallSignals> inRun, List<CallSignals> open) {
        for (CallSignals o : open) {
            if (inRun.contains(o) || o.stage != Stage.REWRITE || o.failed() || o.endMs > c.startMs) {
                continue;
            }
            if (lacksEmbedding(o, c, open) && !movedOnBefore(o, c, open)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the run of rewrite {@code o} had a later stage start before {@code c} ended. */
    private static boolean movedOnBefore(CallSignals o, CallSignals c, List<CallSignals> open) {
        for (CallSignals x : open) {
            if (x != o && x.stage.ordinal() > Stage.EMBED.ordinal() && x.startMs < c.endMs
                    && ContentLinks.strong(o, x)) {
                return true;
            }
        }
        return false;
    }

    /** No open embedding call other than {@code c} is strongly linked to {@code o}. */
    private static boolean lacksEmbedding(CallSignals o, CallSignals c, List<CallSignals> open) {
        for (CallSignals e : open) {
            if (e != c && e.stage == Stage.EMBED && !e.failed() && ContentLinks.strong(o, e)) {
                return false;
            }
        }
        return true;
    }

    /** A call that carries its run's question or rewrite: what an embedded text comes from. */
    private static boolean carriesQuestion(CallSignals s) {
        return !s.failed() && (s.stage == Stage.REWRITE || s.stage == Stage.GENERATE);
    }

    /** Milliseconds between a call and the nearest of some calls of one stage (0 when they overlap). */
    private static long gap(CallSignals c, List<CallSignals> calls, Stage stage) {
        long best = Long.MAX_VALUE;
        for (CallSignals m : calls) {
            if (m.stage == stage && !m.failed()) {
                best = Math.min(best, gap(c, m));
            }
        }
        return best;
    }

    private static boolean hasStage(List<CallSignals> calls, Stage stage) {
        for (CallSignals m : calls) {
            if (m.stage == stage && !m.failed()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Milliseconds from a rewrite's end to an embedding call's start, or from its end to a generator's start (0 when
     * they overlap by less than {@link #RECORDED_END_LAG_MS}); none (the maximum) when the embedding call cannot come
     * from that rewrite or before that generator: it started before the rewrite had its output, or ended after the
     * generator had its context.
     */
    private static long gap(CallSignals embed, CallSignals anchor) {
        if (anchor.stage == Stage.REWRITE) {
            return embed.startMs >= anchor.endMs - RECORDED_END_LAG_MS ? Math.max(0, embed.startMs - anchor.endMs)
                    : Long.MAX_VALUE;
        }
        return embed.endMs - RECORDED_END_LAG_MS <= anchor.startMs ? Math.max(0, anchor.startMs - embed.endMs)
                : Long.MAX_VALUE;
    }
}

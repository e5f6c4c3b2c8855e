package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides which buffered calls form which run, at a given event time. Pure logic: the Flink function owns state and
 * timers and calls this when a timer fires.
 *
 * <p>A run ends at the generator call that produces the answer (of an answer synthesised in several calls, the last:
 * {@link SynthesisChains}): once event time passes that call's end plus the grace, the run is closed with every call
 * that belongs to it. Calls with a run hint all belong to the hinted run.
 * Calls without one are linked by content ({@link ContentLinks}), so interleaved concurrent runs of one pipeline
 * separate. Calls no generator claims within the run timeout are flushed as incomplete runs.
 */
public final class RunLinker {

    /** A run and the event ids of the buffered calls it consumed (to be removed from state). */
    public record Assembled(Run run, Set<String> consumedEventIds) {}

    /** Linking order: by end, then event id. Written out, since every timer sorts every open call. */
    private static final Comparator<CallSignals> BY_END = (a, b) ->
            a.endMs != b.endMs ? Long.compare(a.endMs, b.endMs) : a.eventId().compareTo(b.eventId());

    private RunLinker() {}

    /**
     * The latest start of a call, without a run hint, that linking at {@code now} can use. A run closed at
     * {@code now} has a generator that ended by {@code now} less the grace, and its other calls started by that
     * generator's end; an incomplete run is made of calls that ended a run timeout before {@code now}. A call that
     * started later takes part in none of them, so leaving it out changes no run. (A hinted key is not cut: its
     * incomplete flush looks at its latest call.)
     */
    static long latestStartLinkable(long now) {
        return now;
    }

    public static List<Assembled> link(String pipeline, String runHint, Collection<ClassifiedCall> pending, long now,
            AssemblySettings settings) {
        List<CallSignals> signals = new ArrayList<>();
        for (ClassifiedCall c : pending) {
            signals.add(new CallSignals(c));
        }
        return linkSignals(pipeline, runHint, signals, now, settings);
    }

    /**
     * The same, over calls whose signals were read before: the Flink function keeps them between timers, since
     * normalising every open call's prompt and passages again on each timer made linking quadratic in open calls.
     */
    static List<Assembled> linkSignals(String pipeline, String runHint, Collection<CallSignals> pending, long now,
            AssemblySettings settings) {
        return linkSignals(pipeline, runHint, pending, now, settings, true);
    }

    /**
     * Closes the runs of the generator calls that ended at or before {@code generatorEndMs}, exactly as the event-time
     * path would once its watermark passed them, but flushes nothing as incomplete: that stays with event time.
     */
    static List<Assembled> closeGenerators(String pipeline, String runHint, Collection<CallSignals> pending,
            long generatorEndMs, AssemblySettings settings) {
        return linkSignals(pipeline, runHint, pending, generatorEndMs + settings.grace().toMillis(), settings, false);
    }

    private static List<Assembled> linkSignals(String pipeline, String runHint, Collection<CallSignals> pending,
            long now, AssemblySettings settings, boolean flushExpired) {
        List<CallSignals> open = new ArrayList<>(pending);
        open.sort(BY_END);
        boolean hinted = runHint != null && !runHint.isBlank();
        List<Assembled> out = new ArrayList<>();

        // plain loops and an identity set below, not streams and List.contains: this runs on every timer of a key
        long grace = settings.grace().toMillis();
        List<CallSignals> closers = new ArrayList<>();
        for (CallSignals s : open) {
            if (closes(s.isCloser(), s.endMs, grace, now) && !SynthesisChains.continued(s, open)) {
                closers.add(s);
            }
        }
        Set<CallSignals> claimed = Collections.newSetFromMap(new IdentityHashMap<>());
        int closed = 0;
        for (CallSignals g : closers) {
            if (claimed.contains(g)) {
                continue;
            }
            List<CallSignals> members;
            if (hinted) {
                members = hintedMembers(g, open); // the steps of its answer among them: every call is the run's
            } else {
                List<CallSignals> chain = SynthesisChains.stepsBefore(g, open);
                if (chain.size() == 1 && g.priorAnswer != null) {
                    // a refine whose first step's run had closed before it came: the run it belongs to is gone
                    claimed.add(g);
                    open.remove(g);
                    out.add(assembled(pipeline, null, List.of(g), g, SynthesisChains.LATE_STEP_REASON));
                    continue;
                }
                members = linkedMembers(g, chain, open, settings);
            }
            claimed.addAll(members);
            open.removeIf(claimed::contains);
            String hint = hinted && closed > 0 ? runHint + "#" + (closed + 1) : runHint;
            closed++;
            out.add(assembled(pipeline, hint, members, g, null));
        }

        if (!flushExpired) {
            return out;
        }
        long timeout = settings.runTimeout().toMillis();
        if (hinted) {
            long lastEnd = Long.MIN_VALUE;
            for (CallSignals s : open) {
                lastEnd = Math.max(lastEnd, s.endMs);
            }
            if (!open.isEmpty() && expired(lastEnd, timeout, now)) {
                out.add(assembled(pipeline, runHint, new ArrayList<>(open), open.get(0),
                        incompleteReason(open, settings)));
            }
        } else {
            List<CallSignals> expired = new ArrayList<>();
            for (CallSignals s : open) {
                if (expired(s.endMs, timeout, now)) {
                    expired.add(s);
                }
            }
            for (List<CallSignals> group : components(expired)) {
                out.add(assembled(pipeline, null, group, group.get(0), incompleteReason(group, settings)));
            }
        }
        return out;
    }

    /**
     * Which buffered calls make linking at {@code now} emit a run: a generator call due to close its own, or (when
     * expired calls are flushed) a call past the run timeout. Linking calls of which none is due emits nothing, so a
     * timer need not read them ({@link PendingIndex#anyDue}).
     */
    static Predicate<PendingIndex.Times> due(long now, AssemblySettings settings, boolean flushExpired) {
        long grace = settings.grace().toMillis();
        long timeout = settings.runTimeout().toMillis();
        return t -> closes(t.closer(), t.endMs(), grace, now) || (flushExpired && expired(t.endMs(), timeout, now));
    }

    private static boolean closes(boolean closer, long endMs, long grace, long now) {
        return closer && endMs + grace <= now;
    }

    /** A hinted key's last call, or an unhinted call: past it, its calls leave as an incomplete run. */
    private static boolean expired(long endMs, long timeout, long now) {
        return endMs + timeout <= now;
    }

    /** With a hint the run is known: every call up to the generator's end belongs to it. */
    private static List<CallSignals> hintedMembers(CallSignals g, List<CallSignals> open) {
        List<CallSignals> members = new ArrayList<>();
        for (CallSignals s : open) {
            if (s == g || (s.startMs <= g.endMs && !(s.isCloser() && s.endMs > g.endMs))) {
                members.add(s);
            }
        }
        return members;
    }

    /**
     * Without a hint: the answer's steps ({@code chain}: the generator call alone, unless the answer was synthesised in
     * several calls), then every call strongly linked to the run so far (transitively), one rewriter and one reranker
     * at most (a reranker asked in batches: all of them; an agent's turns that searched, each of them); then stages
     * still empty from passage overlap; then strong
     * links again from what that added (the embedding behind a retrieval found by overlap); then, for a run still
     * without an embedding, the one whose text is near its rewrite or question, or the lone one between its rewrite and
     * its next stage ({@link LooseEmbedLinks}). Failed calls (429, 5xx) join when their request is the one a member
     * retried.
     */
    private static List<CallSignals> linkedMembers(CallSignals g, List<CallSignals> chain, List<CallSignals> open,
            AssemblySettings settings) {
        long earliest = chain.get(0).startMs - settings.maxRunDuration().toMillis();
        List<CallSignals> candidates = new ArrayList<>();
        for (CallSignals s : open) {
            if (s != g && !s.isCloser() && s.startMs >= earliest && s.startMs <= g.endMs) {
                candidates.add(s);
            }
        }
        // nearest in time first, so that of two equally linked calls (the same question asked twice) the closer wins
        CallSignals first = chain.get(0);
        candidates.sort((a, b) -> Long.compare(Math.abs(first.startMs - a.endMs), Math.abs(first.startMs - b.endMs)));

        // the answer's synthesis steps are the run's generator together; the rest links to any of them
        List<CallSignals> members = new ArrayList<>(chain);
        addStrongClosure(members, candidates);
        for (Stage stage : List.of(Stage.RERANK, Stage.RETRIEVE)) {
            if (!hasStage(members, stage)) {
                CallSignals best = bestOverlap(stage, members, candidates);
                if (best != null) {
                    members.add(best);
                    candidates.remove(best);
                }
            }
        }
        addStrongClosure(members, candidates);
        List<CallSignals> turns = rewrites(members);
        if (!turns.isEmpty()) {
            addAgentsLooseEmbeddings(turns, chain.get(0).startMs, members, candidates, open);
        } else if (!hasStage(members, Stage.EMBED)) {
            // an embed fault or an instruction prefix changed the text, and no retrieval call carries the vector
            CallSignals embed = LooseEmbedLinks.find(members, candidates, open);
            if (embed != null) {
                members.add(embed);
                candidates.remove(embed);
                addStrongClosure(members, candidates);
            }
        }
        addRetries(members, candidates);
        return members;
    }

    /**
     * The run's rewrite calls that succeeded, by start: an agent's turns that searched, when more than one. Most runs
     * have one at most, and get an empty list without one made.
     */
    private static List<CallSignals> rewrites(List<CallSignals> members) {
        int count = 0;
        for (CallSignals m : members) {
            count += m.stage == Stage.REWRITE && !m.failed() ? 1 : 0;
        }
        if (count < 2) {
            return List.of();
        }
        List<CallSignals> rewrites = new ArrayList<>(count);
        for (CallSignals m : members) {
            if (m.stage == Stage.REWRITE && !m.failed()) {
                rewrites.add(m);
            }
        }
        rewrites.sort(Comparator.comparingLong(m -> m.startMs));
        return rewrites;
    }

    /**
     * An agent's run: each turn that searched, without an embedding call between it and the next turn (or the
     * answer), gets the one {@link LooseEmbedLinks} finds there, its text near the turn's query, or lone in that time.
     */
    private static void addAgentsLooseEmbeddings(List<CallSignals> turns, long answerStartMs,
            List<CallSignals> members, List<CallSignals> candidates, List<CallSignals> open) {
        for (int i = 0; i < turns.size(); i++) {
            CallSignals turn = turns.get(i);
            long until = i + 1 < turns.size() ? turns.get(i + 1).startMs : answerStartMs;
            List<CallSignals> ofTurn = new ArrayList<>(List.of(turn));
            boolean embedded = false;
            for (CallSignals m : members) {
                if (m != turn && !m.failed() && inTurn(m, turn, until)) {
                    ofTurn.add(m);
                    embedded |= m.stage == Stage.EMBED;
                }
            }
            if (embedded) {
                continue;
            }
            List<CallSignals> inTime = new ArrayList<>();
            for (CallSignals c : candidates) {
                if (c.stage == Stage.EMBED && inTurn(c, turn, until)) {
                    inTime.add(c);
                }
            }
            CallSignals embed = LooseEmbedLinks.find(ofTurn, members, inTime, open);
            if (embed != null) {
                members.add(embed);
                candidates.remove(embed);
                addStrongClosure(members, candidates);
            }
        }
    }

    /**
     * Whether a call lies in an agent's turn's search: it started after the turn was asked and had its reply, and
     * before the next turn (or the answer) was asked, and ended before then. A recorded end may lag the client's reply
     * ({@link LooseEmbedLinks#RECORDED_END_LAG_MS}); a recorded start does not, so starts part the turns.
     */
    private static boolean inTurn(CallSignals c, CallSignals turn, long untilMs) {
        long lag = LooseEmbedLinks.RECORDED_END_LAG_MS;
        return c.startMs > turn.startMs && c.startMs >= turn.endMs - lag && c.startMs < untilMs
                && c.endMs - lag <= untilMs;
    }

    /**
     * Adds strongly linked candidates one at a time, rescanning from the nearest candidate after each addition: a new
     * member can make a nearer call linkable, and the nearer of two identical calls (the same question asked twice at
     * once) must win.
     */
    private static void addStrongClosure(List<CallSignals> members, List<CallSignals> candidates) {
        CallSignals added;
        do {
            added = null;
            for (CallSignals c : candidates) {
                if (c.failed() || (single(c.stage) && hasStage(members, c.stage) && !batchOfAMember(c, members)
                        && !agentTurnOfAMember(c, members) && !rerankOfAnAgentsSearch(c, members))
                        || repeatsAMember(c, members)) {
                    continue;
                }
                if (linksStrongly(members, c)) {
                    added = c;
                    break;
                }
            }
            if (added != null) {
                members.add(added);
                candidates.remove(added);
            }
        } while (added != null);
    }

    private static boolean linksStrongly(List<CallSignals> members, CallSignals c) {
        for (CallSignals m : members) {
            if (ContentLinks.strong(m, c)) {
                return true;
            }
        }
        return false;
    }

    /** The best passage-overlap candidate for an empty stage, judged against the members downstream of it. */
    private static CallSignals bestOverlap(Stage stage, List<CallSignals> members, List<CallSignals> candidates) {
        CallSignals best = null;
        double bestScore = 0.5; // at least half of its passages must show up downstream
        for (CallSignals c : candidates) {
            if (c.stage != stage || c.failed()) {
                continue;
            }
            double batches = stage == Stage.RETRIEVE ? inRerankBatches(c, members) : 0;
            if (batches > bestScore) {
                bestScore = batches;
                best = c;
            }
            for (CallSignals m : members) {
                if (m.stage.ordinal() > stage.ordinal() && (m.stage == Stage.GENERATE || m.stage == Stage.RERANK)) {
                    double score = ContentLinks.weak(c, m);
                    if (score > bestScore) {
                        bestScore = score;
                        best = c;
                    }
                }
            }
        }
        return best;
    }

    /**
     * The share of a retrieval's passages among the documents of a reranker asked in batches, all batches together;
     * 0 when the members rerank in one call (what {@link ContentLinks#weak} reads).
     */
    private static double inRerankBatches(CallSignals retrieval, List<CallSignals> members) {
        List<CallSignals> batches = new ArrayList<>();
        for (CallSignals m : members) {
            if (m.stage == Stage.RERANK && !m.failed()) {
                batches.add(m);
            }
        }
        if (batches.size() < 2 || retrieval.producedPassages.isEmpty()) {
            return 0;
        }
        int found = 0;
        for (String p : retrieval.producedPassages) {
            for (CallSignals b : batches) {
                if (!p.isEmpty() && b.consumedPassages.contains(p)) {
                    found++;
                    break;
                }
            }
        }
        return found / (double) retrieval.producedPassages.size();
    }

    private static void addRetries(List<CallSignals> members, List<CallSignals> candidates) {
        for (CallSignals c : new ArrayList<>(candidates)) {
            if (!c.failed()) {
                continue;
            }
            for (CallSignals m : List.copyOf(members)) {
                if (m.stage == c.stage && m.call.sameRequest(c.call)) {
                    members.add(c);
                    candidates.remove(c);
                    break;
                }
            }
        }
    }

    /**
     * Expired calls without a generator, grouped by the same strong links, retries of the same request, and an
     * embedding near the text of a call that carries its query (a prefix or a fault changed it, as in a complete run).
     */
    private static List<List<CallSignals>> components(List<CallSignals> expired) {
        List<List<CallSignals>> groups = new ArrayList<>();
        Set<CallSignals> assigned = new HashSet<>();
        for (CallSignals seed : expired) {
            if (assigned.contains(seed)) {
                continue;
            }
            Set<CallSignals> group = new LinkedHashSet<>();
            group.add(seed);
            boolean grew = true;
            while (grew) {
                grew = false;
                for (CallSignals c : expired) {
                    if (group.contains(c) || assigned.contains(c)) {
                        continue;
                    }
                    for (CallSignals m : List.copyOf(group)) {
                        boolean sameRequest = m.stage == c.stage && m.call.sameRequest(c.call);
                        if (sameRequest || ContentLinks.strong(m, c) || NearText.embeddedFrom(m, c)) {
                            group.add(c);
                            grew = true;
                            break;
                        }
                    }
                }
            }
            assigned.addAll(group);
            groups.add(new ArrayList<>(group));
        }
        return groups;
    }

    /**
     * A run may embed and search several queries (multi-query rewriters), but never the same query twice: a second
     * call with the same input is another run asking the same question at the same time.
     */
    private static boolean repeatsAMember(CallSignals c, List<CallSignals> members) {
        for (CallSignals m : members) {
            if (m.stage != c.stage || m.failed() || c.batchOf(m)) {
                continue;
            }
            if (!c.consumedQueries.isEmpty() && m.consumedQueries.equals(c.consumedQueries)) {
                return true;
            }
            if (m.consumedVector != null && ContentLinks.sameVector(m.consumedVector, c.consumedVector)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A rewrite call that is an agent's turn before or after a member's: one of them carries, in its conversation, a
     * search the other asked for ({@link CallSignals#searchesAfter}), and it asks for no search a member asked for
     * (another run's same turn, the same question asked twice at once).
     */
    private static boolean agentTurnOfAMember(CallSignals c, List<CallSignals> members) {
        if (c.stage != Stage.REWRITE) {
            return false;
        }
        boolean turn = false;
        for (CallSignals m : members) {
            if (m.stage != Stage.REWRITE || m.failed()) {
                continue;
            }
            if (m.producedQueries.equals(c.producedQueries)) {
                return false;
            }
            turn |= c.searchesAfter(m) || m.searchesAfter(c);
        }
        return turn;
    }

    /**
     * A rerank call of one of an agent's searches, its search tool reranking what it found: the run's rewriter is an
     * agent's turns (two rewrite calls or more), the call's query is one a turn asked for, and no member reranked
     * for it.
     */
    private static boolean rerankOfAnAgentsSearch(CallSignals c, List<CallSignals> members) {
        if (c.stage != Stage.RERANK || c.consumedQueries.isEmpty()) {
            return false;
        }
        int turns = 0;
        boolean asked = false;
        for (CallSignals m : members) {
            if (m.failed()) {
                continue;
            }
            if (m.stage == Stage.RERANK && m.consumedQueries.equals(c.consumedQueries)) {
                return false;
            }
            if (m.stage == Stage.REWRITE) {
                turns++;
                asked |= m.producedQueries.containsAll(c.consumedQueries);
            }
        }
        return turns > 1 && asked;
    }

    /** A rerank call that is another batch of every rerank among the members (a single stage's one ranking). */
    private static boolean batchOfAMember(CallSignals c, List<CallSignals> members) {
        boolean any = false;
        for (CallSignals m : members) {
            if (m.stage == c.stage && !m.failed()) {
                if (!c.batchOf(m)) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    private static boolean single(Stage stage) {
        return stage == Stage.REWRITE || stage == Stage.RERANK || stage == Stage.GENERATE;
    }

    private static boolean hasStage(List<CallSignals> members, Stage stage) {
        for (CallSignals m : members) {
            if (m.stage == stage && !m.failed()) {
                return true;
            }
        }
        return false;
    }

    private static String incompleteReason(List<CallSignals> calls, AssemblySettings settings) {
        boolean generatorFailed = calls.stream().anyMatch(s -> s.stage == Stage.GENERATE && s.failed());
        String seen = calls.stream().map(s -> s.stage.id()).distinct().reduce((a, b) -> a + ", " + b).orElse("");
        if (generatorFailed) {
            return "the generator call failed and no successful retry followed within "
                    + settings.runTimeout().toSeconds() + "s (stages seen: " + seen + ")";
        }
        boolean carriesQuestion = calls.stream().anyMatch(s -> s.stage == Stage.REWRITE || s.stage == Stage.GENERATE);
        if (!carriesQuestion) {
            // split off a run no content linked it to: not a question of its own, so nothing to check or score
            return IncompleteRuns.ORPHAN_PREFIX + "calls no run claimed within " + settings.runTimeout().toSeconds()
                    + "s (stages seen: " + seen + ")";
        }
        return "no generator call within " + settings.runTimeout().toSeconds() + "s (stages seen: " + seen + ")";
    }

    private static Assembled assembled(String pipeline, String hint, List<CallSignals> members, CallSignals anchor,
            String incompleteReason) {
        List<ClassifiedCall> calls = new ArrayList<>(members.size());
        Set<String> ids = new LinkedHashSet<>();
        NormalisedTexts normalised = new NormalisedTexts(normalisedTexts(members) + TEXTS_ADDED_BY_BUILDING);
        for (CallSignals m : members) {
            calls.add(m.call);
            ids.add(m.eventId());
            normalised.addAll(m.normalised);
        }
        return new Assembled(RunBuilder.build(pipeline, hint, calls, anchor.call, incompleteReason, normalised), ids);
    }

    /**
     * Room for the texts building a run normalises beyond its calls' (the passages the prompt reader split from the
     * prompt), so that the run's memo, sized for its calls' texts rather than by default, seldom grows (issue #27).
     */
    private static final int TEXTS_ADDED_BY_BUILDING = 8;

    private static int normalisedTexts(List<CallSignals> members) {
        int n = 0;
        for (CallSignals m : members) {
            n += m.normalised.size();
        }
        return n;
    }
}

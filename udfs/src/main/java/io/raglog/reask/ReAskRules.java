package io.raglog.reask;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Whether a question re-asks one its user asked shortly before: the most similar of the key's recent questions, when it
 * scores at least the threshold. Plain Java: {@link ReAskFunction} wires it to keyed state and timers, and an offline
 * replay (the goal test) calls it the same way.
 */
public final class ReAskRules {

    /** What one question did to its key's memory, and the re-asks it showed (none, one, or at most two). */
    public record Outcome(RecentQuestions remembered, List<ReAsk> reAsks) {}

    private final ReAskSettings settings;
    private final QuestionSimilarity similarity;

    public ReAskRules(ReAskSettings settings, QuestionSimilarity similarity) {
        this.settings = settings;
        this.similarity = similarity;
    }

    public ReAskSettings settings() {
        return settings;
    }

    /**
     * Compares {@code asked} with its key's recent questions, then remembers it. Runs reach the key as they close,
     * and under a backlog a later run can close first: so {@code asked} may re-ask an earlier question, and may also
     * be re-asked by a later one that came before it and re-asks nothing yet. Either way the pair found is the one
     * the questions' order in time gives, whichever arrived first.
     */
    public Outcome consider(RecentQuestions recent, AskedQuestion asked) {
        boolean session = asked.hasSession();
        Duration window = settings.window(session);
        if (!session && !settings.anonymousMatching()) {
            return new Outcome(recent, List.of());
        }
        List<ReAsk> found = new ArrayList<>(2);
        Best earlier = best(recent.before(asked.askedAt(), window), asked, r -> similarity.score(asked.question(),
                r.question()));
        if (earlier != null) {
            found.add(reAsk(asked.pipeline(), asked.session(), asked.runId(), asked.question(), asked.askedAt(),
                    earlier.question(), earlier.score()));
        }
        RecentQuestions updated = recent.with(new RecentQuestions.Remembered(asked.runId(), asked.question(),
                asked.askedAt(), earlier != null), settings.memory(session), window);
        Best later = best(recent.notReAskingAfter(asked.askedAt(), window), asked,
                r -> similarity.score(r.question(), asked.question()));
        if (later != null) {
            RecentQuestions.Remembered l = later.question();
            found.add(reAsk(asked.pipeline(), asked.session(), l.runId(), l.question(), l.askedAt(),
                    new RecentQuestions.Remembered(asked.runId(), asked.question(), asked.askedAt()), later.score()));
            updated = updated.markedReAsking(l.runId());
        }
        return new Outcome(updated, found);
    }

    private record Best(RecentQuestions.Remembered question, double score) {}

    /** The candidate scoring highest, at or above the threshold; ties go to the more recent question. */
    private Best best(List<RecentQuestions.Remembered> candidates, AskedQuestion asked,
            ToDoubleFunction<RecentQuestions.Remembered> score) {
        Best best = null;
        for (RecentQuestions.Remembered r : candidates) {
            if (r.runId().equals(asked.runId())) {
                continue; // the same run delivered twice (a replay after a restore) is no re-ask of itself
            }
            double s = score.applyAsDouble(r);
            if (s >= settings.threshold() && (best == null || s >= best.score())) {
                best = new Best(r, s);
            }
        }
        return best;
    }

    private static ReAsk reAsk(String pipeline, String session, String runId, String question, Instant askedAt,
            RecentQuestions.Remembered earlier, double score) {
        return new ReAsk(pipeline, session, runId, earlier.runId(), Math.min(1, score),
                Duration.between(earlier.askedAt(), askedAt).toSeconds(), question, earlier.question(), askedAt);
    }
}

package io.raglog.reask;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Whether a question re-asks one its user asked shortly before: the most similar of the key's recent questions, when it
 * scores at least the threshold. Plain Java: {@link ReAskFunction} wires it to keyed state and timers, and an offline
 * replay (the goal test) calls it the same way.
 */
public final class ReAskRules {

    /** What one question did to its key's memory, and the re-ask it showed, if any. */
    public record Outcome(RecentQuestions remembered, Optional<ReAsk> reAsk) {}

    private final ReAskSettings settings;
    private final QuestionSimilarity similarity;

    public ReAskRules(ReAskSettings settings, QuestionSimilarity similarity) {
        this.settings = settings;
        this.similarity = similarity;
    }

    public ReAskSettings settings() {
        return settings;
    }

    /** Compares {@code asked} with its key's recent questions, then remembers it. */
    public Outcome consider(RecentQuestions recent, AskedQuestion asked) {
        boolean session = asked.hasSession();
        Duration window = settings.window(session);
        if (!session && !settings.anonymousMatching()) {
            return new Outcome(recent, Optional.empty());
        }
        List<RecentQuestions.Remembered> candidates = recent.before(asked.askedAt(), window);
        RecentQuestions.Remembered best = null;
        double bestScore = -1;
        for (RecentQuestions.Remembered r : candidates) {
            if (r.runId().equals(asked.runId())) {
                continue; // the same run delivered twice (a replay after a restore) is no re-ask of itself
            }
            double score = similarity.score(asked.question(), r.question());
            // ties go to the more recent question: a user re-asks what they were just answered
            if (score >= bestScore) {
                bestScore = score;
                best = r;
            }
        }
        Optional<ReAsk> reAsk = Optional.empty();
        if (best != null && bestScore >= settings.threshold()) {
            reAsk = Optional.of(new ReAsk(asked.pipeline(), asked.session(), asked.runId(), best.runId(),
                    Math.min(1, bestScore), Duration.between(best.askedAt(), asked.askedAt()).toSeconds(),
                    asked.question(), best.question(), asked.askedAt()));
        }
        RecentQuestions updated = recent.with(new RecentQuestions.Remembered(asked.runId(), asked.question(),
                asked.askedAt()), settings.memory(session), window);
        return new Outcome(updated, reAsk);
    }
}

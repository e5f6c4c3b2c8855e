package io.raglog.reask;

import java.io.Serializable;
import java.time.Duration;

/**
 * How re-asks are looked for. The defaults were chosen on simulated sessions of the training split's articles
 * ({@code ReAskThresholdTest} in {@code job} recomputes the choice and fails when it moves).
 *
 * @param sessionWindow how long a session's answered questions are remembered: a re-ask comes within minutes
 * @param anonymousWindow the same for runs without a session, matched across the pipeline's unsessioned users: shorter,
 *     since every such user's questions share one key
 * @param maxRemembered questions remembered per session, the most recent first (state stays bounded)
 * @param maxRememberedAnonymous questions remembered per pipeline for runs without a session
 * @param threshold the paraphrase score ({@link QuestionSimilarity}) from which a question re-asks an earlier one
 * @param embeddingWeight the share of the embedding cosine in the score when an embedder is at hand; the rest is
 *     the lexical score
 */
public record ReAskSettings(Duration sessionWindow, Duration anonymousWindow, int maxRemembered,
        int maxRememberedAnonymous, double threshold, double embeddingWeight) implements Serializable {

    public static final Duration DEFAULT_SESSION_WINDOW = Duration.ofMinutes(10);
    public static final Duration DEFAULT_ANONYMOUS_WINDOW = Duration.ofMinutes(2);
    public static final int DEFAULT_MAX_REMEMBERED = 8;
    public static final int DEFAULT_MAX_REMEMBERED_ANONYMOUS = 64;
    /**
     * Chosen together on the training split's simulated sessions (see the class comment): the best recall at a
     * training precision of 0.95 or more, of lexical alone and of a quarter or a half of MiniLM cosine, over
     * thresholds 0.40-0.80. The cosine alone scores same-topic questions as high as paraphrases; a quarter of it
     * forgave the synonyms the words miss, until the simulator of 2026-12-06 drew other sessions and the words alone
     * did as well (the quarter is no better at any threshold that keeps the precision), so the job computes no
     * embedding for re-asks unless a deployment sets a weight.
     */
    public static final double DEFAULT_THRESHOLD = 0.6;
    public static final double DEFAULT_EMBEDDING_WEIGHT = 0.0;

    public ReAskSettings {
        if (sessionWindow == null || sessionWindow.isNegative() || sessionWindow.isZero()) {
            throw new IllegalArgumentException("re-ask session window must be > 0, was " + sessionWindow);
        }
        if (anonymousWindow == null || anonymousWindow.isNegative()) {
            throw new IllegalArgumentException("re-ask anonymous window must be >= 0, was " + anonymousWindow);
        }
        if (maxRemembered < 1 || maxRememberedAnonymous < 0) {
            throw new IllegalArgumentException("re-ask memory must hold at least one question per session");
        }
        if (threshold <= 0 || threshold > 1) {
            throw new IllegalArgumentException("re-ask threshold must be within (0, 1], was " + threshold);
        }
        if (embeddingWeight < 0 || embeddingWeight > 1) {
            throw new IllegalArgumentException("re-ask embedding weight must be within [0, 1], was " + embeddingWeight);
        }
    }

    public static ReAskSettings defaults() {
        return new ReAskSettings(DEFAULT_SESSION_WINDOW, DEFAULT_ANONYMOUS_WINDOW, DEFAULT_MAX_REMEMBERED,
                DEFAULT_MAX_REMEMBERED_ANONYMOUS, DEFAULT_THRESHOLD, DEFAULT_EMBEDDING_WEIGHT);
    }

    public ReAskSettings withThreshold(double value) {
        return new ReAskSettings(sessionWindow, anonymousWindow, maxRemembered, maxRememberedAnonymous, value,
                embeddingWeight);
    }

    public ReAskSettings withEmbeddingWeight(double value) {
        return new ReAskSettings(sessionWindow, anonymousWindow, maxRemembered, maxRememberedAnonymous, threshold,
                value);
    }

    public ReAskSettings withWindows(Duration session, Duration anonymous) {
        return new ReAskSettings(session, anonymous, maxRemembered, maxRememberedAnonymous, threshold,
                embeddingWeight);
    }

    /** No unsessioned runs are compared: for pipelines whose users share one anonymous key too densely. */
    public boolean anonymousMatching() {
        return maxRememberedAnonymous > 0 && !anonymousWindow.isZero();
    }

    public Duration window(boolean session) {
        return session ? sessionWindow : anonymousWindow;
    }

    public int memory(boolean session) {
        return session ? maxRemembered : maxRememberedAnonymous;
    }
}

package io.raglog.schemas;

/**
 * Where a simulated run sits in its user's session (label v4): the ground truth that re-ask detection is measured
 * against. The user is known to the simulator even when the pipeline sent no session id; the detector never is.
 *
 * @param user the simulated user, whether or not the pipeline sent a session id
 * @param id the session id the run's calls carried ({@code x-session-id}, span attribute {@code session.id}); null when
 *     the pipeline or the user sent none
 * @param turn 1 for the session's first question
 * @param kind {@link #FIRST}, {@link #REASK}, {@link #FOLLOW_UP} or {@link #NEW_TOPIC}
 * @param previousRunId the run of the session's previous turn; null on the first turn
 * @param reaskOf the run whose question this one paraphrases; set exactly when {@code kind} is {@link #REASK}
 */
public record LabelSession(String user, String id, int turn, String kind, String previousRunId, String reaskOf) {

    /** The session's first question. */
    public static final String FIRST = "first";
    /** A paraphrase of an earlier question of the session: the user was not happy with the answer. */
    public static final String REASK = "reask";
    /** Another question on the same article as the previous turn: same topic, a different question. */
    public static final String FOLLOW_UP = "follow_up";
    /** A question unrelated to the previous turn. */
    public static final String NEW_TOPIC = "new_topic";

    public LabelSession {
        if ((reaskOf != null) != REASK.equals(kind)) {
            throw new IllegalArgumentException("reask_of is set exactly on a re-ask, was " + kind + " / " + reaskOf);
        }
    }

    public boolean reask() {
        return REASK.equals(kind);
    }
}

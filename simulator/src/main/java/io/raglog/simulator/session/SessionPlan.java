package io.raglog.simulator.session;

import java.util.Set;

/**
 * How simulated users behave across turns, when the simulation has sessions ({@link #none()} by default: every run a
 * stranger's single question, as before sessions existed).
 *
 * @param reaskAfterBadAnswer chance that the next turn re-asks the question when the answer was wrong or a refusal
 * @param reaskAfterGoodAnswer the same after a right answer (users re-ask good answers too: they missed a detail)
 * @param followUp chance that the next turn asks another question on the same article (same paragraph mostly): same
 *     topic, different question, the hard negative of re-ask detection
 * @param endAfterTurn chance that a user leaves after a turn; sessions last {@code 1 / endAfterTurn} turns on average
 * @param maxTurns a session never goes longer
 * @param noSessionShare share of users of pipelines that send a session id whose calls carry none (a client that
 *     never set it, a first-page visitor): their re-asks are found within the pipeline only
 * @param silentPipelines pipelines that never send a session id
 * @param thinkSeconds median seconds between an answer and the user's next question (log-normal; re-asks come faster)
 */
public record SessionPlan(boolean enabled, double reaskAfterBadAnswer, double reaskAfterGoodAnswer, double followUp,
        double endAfterTurn, int maxTurns, double noSessionShare, Set<String> silentPipelines, double thinkSeconds) {

    /** The header the simulated pipelines send the session id in, as the proxy records it by default. */
    public static final String SESSION_HEADER = "x-session-id";
    /** The span attribute the traced pipeline sets (OpenTelemetry's {@code session.id}). */
    public static final String SESSION_ATTRIBUTE = "session.id";

    public SessionPlan {
        silentPipelines = Set.copyOf(silentPipelines);
        if (maxTurns < 1) {
            throw new IllegalArgumentException("sessions need at least one turn, was " + maxTurns);
        }
    }

    public static SessionPlan none() {
        return new SessionPlan(false, 0, 0, 0, 1, 1, 0, Set.of(), 1);
    }

    /**
     * Users who re-ask about half of the answers that failed them and a few of the good ones; two pipelines send no
     * session id at all (one proxied by content, one LangChain app that never set one).
     */
    public static SessionPlan typical() {
        return new SessionPlan(true, 0.45, 0.06, 0.35, 0.3, 8, 0.15, Set.of("docs-qa", "helpdesk-langchain"), 25);
    }
}

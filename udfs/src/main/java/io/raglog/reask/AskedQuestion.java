package io.raglog.reask;

import io.raglog.schemas.Run;
import java.time.Instant;

/**
 * A question a pipeline was asked and answered: what re-ask detection reads of a run.
 *
 * @param session the user session the run's calls carried ({@code CallEvent.session}); null when none, and the run is
 *     then compared with the pipeline's other unsessioned runs of a shorter window
 * @param askedAt when the run started (event time)
 */
public record AskedQuestion(String pipeline, String session, String runId, String question, Instant askedAt) {

    public AskedQuestion {
        if (session != null && session.isBlank()) {
            session = null;
        }
    }

    /**
     * A complete run's question, with the session its calls carried ({@link Run#session()}); null for a run that has
     * none to compare (incomplete, or no question found).
     */
    public static AskedQuestion of(Run run) {
        if (run.incomplete() || run.question() == null || run.question().isBlank() || run.startedAt() == null) {
            return null;
        }
        return new AskedQuestion(run.pipeline(), run.session(), run.runId(), run.question(), run.startedAt());
    }

    public boolean hasSession() {
        return session != null;
    }

    /**
     * The key re-asks are looked for under: the pipeline and the session, or the pipeline alone when the run has no
     * session (its key then holds every unsessioned user of the pipeline, so its window is shorter).
     */
    public String key() {
        return hasSession() ? pipeline + SESSION_MARK + session : pipeline + NO_SESSION_MARK;
    }

    /** Whether a {@link #key()} is a session's (else it is a pipeline's unsessioned users'). */
    public static boolean isSessionKey(String key) {
        return !key.endsWith(NO_SESSION_MARK);
    }

    private static final String SESSION_MARK = "\u0000s\u0000";
    private static final String NO_SESSION_MARK = "\u0000-";
}

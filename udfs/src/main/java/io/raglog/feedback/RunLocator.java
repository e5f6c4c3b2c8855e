package io.raglog.feedback;

import io.raglog.schemas.Feedback;
import io.raglog.schemas.RunIds;
import java.util.Locale;

/**
 * Which run a feedback record is about. A run id, a run hint and a trace id all name one run: hints and trace ids
 * are what run ids are derived from ({@link RunIds}: an OTLP-captured run's hint is its trace id), so each gives the
 * run id directly. Only a question needs a search: the run of the pipeline that asked it nearest in time.
 *
 * @param runId the run named, null when only the question is known
 * @param question the question's {@link #questionKey}, when the run must be searched for
 * @param matchedBy {@code run_id}, {@code run_hint}, {@code trace_id} or {@code question}
 */
public record RunLocator(String runId, String question, String matchedBy) {

    public static RunLocator of(Feedback f) {
        if (f.runId() != null) {
            return new RunLocator(f.runId(), null, "run_id");
        }
        if (f.runHint() != null) {
            return new RunLocator(RunIds.of(f.pipeline(), f.runHint(), null), null, "run_hint");
        }
        if (f.traceId() != null) {
            return new RunLocator(RunIds.of(f.pipeline(), f.traceId(), null), null, "trace_id");
        }
        return new RunLocator(null, questionKey(f.question()), "question");
    }

    public boolean byQuestion() {
        return runId == null;
    }

    /**
     * A question as it is compared: case, runs of white space and the closing punctuation are how a front end and a
     * pipeline may write the same question differently.
     */
    public static String questionKey(String question) {
        if (question == null) {
            return null;
        }
        String key = question.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return key.replaceAll("[\\s?!.]+$", "");
    }
}

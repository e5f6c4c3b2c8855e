package io.raglog.feedback;

import java.util.ArrayList;
import java.util.List;

/**
 * The held runs of one pipeline that asked one question, with their event times: the index question feedback
 * searches.
 */
record QuestionRuns(List<RunAt> runs) {

    record RunAt(String runId, long at) {}

    static final QuestionRuns NONE = new QuestionRuns(List.of());

    QuestionRuns plus(String runId, long at) {
        List<RunAt> more = new ArrayList<>(runs);
        more.add(new RunAt(runId, at));
        return new QuestionRuns(more);
    }

    QuestionRuns without(String runId) {
        return new QuestionRuns(runs.stream().filter(r -> !r.runId().equals(runId)).toList());
    }

    /** The run nearest in time to {@code at}, at most {@code window} away; null when none is. */
    String nearest(long at, long window) {
        RunAt best = null;
        for (RunAt r : runs) {
            long distance = Math.abs(r.at() - at);
            if (distance <= window && (best == null || distance < Math.abs(best.at() - at))) {
                best = r;
            }
        }
        return best == null ? null : best.runId();
    }
}

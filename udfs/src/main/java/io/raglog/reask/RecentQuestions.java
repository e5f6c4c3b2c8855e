package io.raglog.reask;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The questions a session (or a pipeline's unsessioned users) asked lately, oldest first: the keyed state of re-ask
 * detection. Bounded twice, by age and by count, so a session that never ends holds a few questions only.
 */
public record RecentQuestions(List<Remembered> questions) implements Serializable {

    /**
     * One answered question: enough to say it was re-asked, and by which run.
     *
     * @param reAsks whether it was found to re-ask an earlier question (it marks one earlier run at most)
     */
    public record Remembered(String runId, String question, Instant askedAt, boolean reAsks) implements Serializable {

        public Remembered(String runId, String question, Instant askedAt) {
            this(runId, question, askedAt, false);
        }
    }

    public RecentQuestions {
        questions = List.copyOf(questions);
    }

    public static RecentQuestions empty() {
        return new RecentQuestions(List.of());
    }

    /** Those asked before {@code at} and within {@code window} of it: what a question at {@code at} may re-ask. */
    public List<Remembered> before(Instant at, Duration window) {
        Instant from = at.minus(window);
        List<Remembered> out = new ArrayList<>();
        for (Remembered r : questions) {
            if (r.askedAt().isBefore(at) && !r.askedAt().isBefore(from)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Those asked after {@code at} and within {@code window} of it that re-ask nothing yet: what may re-ask a question
     * that reached the key after them (its run closed later, as runs do when a backlog is read).
     */
    public List<Remembered> notReAskingAfter(Instant at, Duration window) {
        Instant to = at.plus(window);
        List<Remembered> out = new ArrayList<>();
        for (Remembered r : questions) {
            if (r.askedAt().isAfter(at) && !r.askedAt().isAfter(to) && !r.reAsks()) {
                out.add(r);
            }
        }
        return out;
    }

    /** The same questions, with {@code runId}'s marked as re-asking an earlier one. */
    public RecentQuestions markedReAsking(String runId) {
        List<Remembered> out = new ArrayList<>(questions.size());
        for (Remembered r : questions) {
            out.add(r.runId().equals(runId) ? new Remembered(r.runId(), r.question(), r.askedAt(), true) : r);
        }
        return new RecentQuestions(out);
    }

    /**
     * With {@code asked} remembered: in time order (a run can close after a later one, so it is inserted, not
     * appended), the oldest dropped beyond {@code max}, and those older than {@code window} before the newest.
     */
    public RecentQuestions with(Remembered asked, int max, Duration window) {
        List<Remembered> out = new ArrayList<>(questions.size() + 1);
        int at = questions.size();
        while (at > 0 && questions.get(at - 1).askedAt().isAfter(asked.askedAt())) {
            at--;
        }
        out.addAll(questions.subList(0, at));
        out.removeIf(r -> r.runId().equals(asked.runId())); // a run delivered again is remembered once
        out.add(asked);
        out.addAll(questions.subList(at, questions.size()));
        Instant newest = out.get(out.size() - 1).askedAt();
        out.removeIf(r -> r.askedAt().isBefore(newest.minus(window)));
        while (out.size() > max) {
            out.remove(0);
        }
        return new RecentQuestions(out);
    }

    /** When the newest question leaves the window: nothing is left to compare with, and the state can go. */
    public Instant expiresAt(Duration window) {
        return questions.isEmpty() ? null : questions.get(questions.size() - 1).askedAt().plus(window);
    }

    public boolean isEmpty() {
        return questions.isEmpty();
    }
}

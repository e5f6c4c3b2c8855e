package io.raglog.reask;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelSession;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.SimulationSink;
import io.raglog.simulator.session.SessionPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Simulated users in sessions on one split's articles, replayed through {@link ReAskRules} in arrival order as the
 * keyed function sees them (one memory per key), and scored against the labels' ground truth.
 */
final class SimulatedSessions {

    /** Runs per sample: ~700 re-asks and ~500 same-article follow-ups on each split. */
    static final int RUNS = 3000;
    /** Two questions a second across the six pipelines: a third of a question a second per pipeline. */
    static final double ARRIVALS_PER_SECOND = 2;

    final String split;
    final List<Label> labels;
    private final Map<String, Label> byRun = new HashMap<>();

    private SimulatedSessions(String split, List<Label> labels) {
        this.split = split;
        this.labels = labels;
        labels.forEach(l -> byRun.put(l.runId(), l));
    }

    static SimulatedSessions of(String split, long seed) {
        List<Label> labels = new ArrayList<>();
        SimulatorOptions options = SimulatorOptions.of("all", RUNS, seed).withSplit(split)
                .withArrivalRate(ARRIVALS_PER_SECOND).withIndexEvery(0).withSessions(SessionPlan.typical());
        new Simulator(options).run(new SimulationSink() {
            @Override
            public void call(CallEvent call) {}

            @Override
            public void traces(ObjectNode request) {}

            @Override
            public void label(Label label) {
                labels.add(label);
            }

            @Override
            public void close() {}
        });
        return new SimulatedSessions(split, labels);
    }

    /** Precision and recall of re-ask detection, overall and on the hard negatives (same-article follow-ups). */
    record Score(int truePositives, int falsePositives, int falseNegatives, int followUps, int followUpsFlagged,
            int anonymousReAsks, int anonymousFound) {
        /** Both samples' counts together. */
        Score plus(Score o) {
            return new Score(truePositives + o.truePositives, falsePositives + o.falsePositives,
                    falseNegatives + o.falseNegatives, followUps + o.followUps, followUpsFlagged + o.followUpsFlagged,
                    anonymousReAsks + o.anonymousReAsks, anonymousFound + o.anonymousFound);
        }

        double precision() {
            return truePositives + falsePositives == 0 ? 1 : (double) truePositives / (truePositives + falsePositives);
        }

        double recall() {
            return truePositives + falseNegatives == 0 ? 1 : (double) truePositives / (truePositives + falseNegatives);
        }

        /** Precision where the negatives are the follow-ups alone: re-asks against same-topic questions. */
        double hardNegativePrecision() {
            return truePositives + followUpsFlagged == 0 ? 1
                    : (double) truePositives / (truePositives + followUpsFlagged);
        }

        double followUpFlagRate() {
            return followUps == 0 ? 0 : (double) followUpsFlagged / followUps;
        }

        double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "precision %.3f (%d/%d), recall %.3f (%d/%d); hard negatives: "
                    + "%d of %d same-article follow-ups flagged (%.3f), precision against them %.3f; "
                    + "re-asks without a session found %d of %d", precision(), truePositives,
                    truePositives + falsePositives, recall(), truePositives, truePositives + falseNegatives,
                    followUpsFlagged, followUps, followUpFlagRate(), hardNegativePrecision(), anonymousFound,
                    anonymousReAsks);
        }
    }

    /** Replays the sample through {@code rules}, one memory per key, in the order the questions were asked. */
    List<ReAsk> replay(ReAskRules rules) {
        Map<String, RecentQuestions> memory = new HashMap<>();
        List<ReAsk> found = new ArrayList<>();
        for (Label l : labels) {
            AskedQuestion asked = new AskedQuestion(l.pipeline(), l.session().id(), l.runId(), l.question(),
                    l.startedAt());
            ReAskRules.Outcome outcome = rules.consider(memory.getOrDefault(asked.key(), RecentQuestions.empty()),
                    asked);
            memory.put(asked.key(), outcome.remembered());
            found.addAll(outcome.reAsks());
        }
        return found;
    }

    /**
     * A found re-ask is right when its run re-asks and the earlier run it names asked the same question of the same
     * user (the one re-asked, or an earlier wording of it).
     */
    Score score(List<ReAsk> found) {
        int tp = 0;
        int fp = 0;
        int followUpsFlagged = 0;
        int anonymousFound = 0;
        Set<String> caught = new HashSet<>();
        for (ReAsk r : found) {
            Label later = byRun.get(r.runId());
            Label earlier = byRun.get(r.earlierRunId());
            boolean right = later.session().reask() && earlier.session().user().equals(later.session().user())
                    && earlier.questionId().equals(later.questionId());
            if (right) {
                tp++;
                caught.add(r.runId());
                anonymousFound += later.session().id() == null ? 1 : 0;
            } else {
                fp++;
                followUpsFlagged += LabelSession.FOLLOW_UP.equals(later.session().kind()) ? 1 : 0;
            }
        }
        int reAsks = 0;
        int followUps = 0;
        int anonymousReAsks = 0;
        for (Label l : labels) {
            reAsks += l.session().reask() ? 1 : 0;
            anonymousReAsks += l.session().reask() && l.session().id() == null ? 1 : 0;
            followUps += LabelSession.FOLLOW_UP.equals(l.session().kind()) ? 1 : 0;
        }
        return new Score(tp, fp, reAsks - caught.size(), followUps, followUpsFlagged, anonymousReAsks,
                anonymousFound);
    }
}

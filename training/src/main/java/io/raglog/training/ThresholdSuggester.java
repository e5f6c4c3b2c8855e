package io.raglog.training;

import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict.ModelProbabilities;
import io.raglog.score.Ensemble;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * Per-stage thresholds from a team's own hand-labeled runs, for a false-positive rate they accept.
 *
 * <p>The rate is the run-level one: the share of sound runs (no faulty stage) with at least one flagged stage,
 * because that is what a team sees in its debugging queue and what the goal (&le; 5 %) measures. A per-stage
 * rate would not do: five stages each allowed 5 % compound to far more than 5 % of runs. Within that budget the
 * thresholds maximise the mean of the stages' F1 on the hand-labeled runs, searched together exactly as in training
 * ({@link ThresholdSearch}), starting from the bundle's thresholds and keeping them where nothing does better.
 *
 * <p>The reviewed runs are a sample, and thresholds lowered to the edge of the budget on them overshoot it on the
 * runs that follow: on the held-out profile, 4.2 % on 96 reviewed sound runs became 7.0 % on the next 227. So the
 * search keeps within the share of sound runs whose one-sided {@link #CONFIDENCE} upper bound (Clopper-Pearson) on
 * the rate is within the budget: with 96 sound runs and 5 %, one flagged sound run, not four. With too few sound runs
 * for even none to show the rate within the budget, the search flags no sound run at all.
 *
 * <p>What too little data cannot measure is not moved: with fewer than 1 / maxFpr sound runs nothing changes, and a
 * stage with fewer than {@link #MIN_PER_CLASS} faulty or sound instances keeps its threshold. Each case is noted.
 */
public final class ThresholdSuggester {

    /** Fewest faulty and fewest sound instances of a stage before its threshold is moved. */
    public static final int MIN_PER_CLASS = 5;
    /** How sure the suggestion must be that the run-level rate is within the budget on runs like the reviewed ones. */
    public static final double CONFIDENCE = 0.9;
    /** How closely the bound is solved for: far finer than one run in the largest review sample. */
    private static final double BOUND_ACCURACY = 1e-12;

    private ThresholdSuggester() {}

    /**
     * @param sound the stage's sound, present, labeled instances
     * @param falsePositiveRate the stage's own rate at the suggested threshold, before the reassignment rule
     * @param recall of the stage's faulty instances at the suggested threshold, before the reassignment rule
     */
    public record StageSuggestion(double current, double suggested, int sound, int faulty, double falsePositiveRate,
            double recall, boolean changed, String note) {}

    /**
     * @param searchedRunFpr the share of the reviewed sound runs the search allowed to flag ({@link #CONFIDENCE})
     * @param before and @param after the full decision (rule included) with the bundle's and the suggested thresholds
     */
    public record Suggestion(String modelBundle, double maxRunFpr, double searchedRunFpr, int runs,
            Map<String, StageSuggestion> stages, MethodReport before, MethodReport after, List<String> notes) {

        public Map<Stage, Double> thresholds() {
            Map<Stage, Double> out = new EnumMap<>(Stage.class);
            stages.forEach((id, s) -> out.put(Stage.of(id), s.suggested()));
            return out;
        }

        public String toTable() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "Thresholds for a run-level false-positive rate <= %.1f%% from %d hand-labeled runs (bundle %s);"
                            + " searched within %.1f%% of their sound runs, so that the rate's %.0f%% upper bound"
                            + " stays within the budget%n",
                    100 * maxRunFpr, runs, modelBundle, 100 * searchedRunFpr, 100 * CONFIDENCE));
            out.append(String.format(Locale.ROOT, "%-9s %8s %10s %6s %7s %10s %8s  %s%n", "stage", "current",
                    "suggested", "sound", "faulty", "stage FPR", "recall", "note"));
            stages.forEach((id, s) -> out.append(String.format(Locale.ROOT,
                    "%-9s %8.3f %10.3f %6d %7d %9.1f%% %7.1f%%  %s%n", id, s.current(), s.suggested(), s.sound(),
                    s.faulty(), 100 * s.falsePositiveRate(), 100 * s.recall(), s.note())));
            out.append(String.format(Locale.ROOT, "stage F1 %.3f -> %.3f, run-level FPR %.1f%% -> %.1f%% (%d sound runs)%n",
                    before.pooled().f1(), after.pooled().f1(), 100 * before.runs().falsePositiveRate(),
                    100 * after.runs().falsePositiveRate(), after.runs().soundRuns()));
            notes.forEach(n -> out.append("note: ").append(n).append(System.lineSeparator()));
            return out.toString();
        }
    }

    public static Suggestion suggest(ModelBundle bundle, List<LabeledRun> handLabeled, double maxRunFpr) {
        if (!(maxRunFpr > 0 && maxRunFpr < 1)) {
            throw new IllegalArgumentException("max FPR must be in (0, 1), was " + maxRunFpr);
        }
        Scorer scorer = new Scorer(bundle);
        List<ThresholdSearch.ScoredRun> scored = new ArrayList<>(handLabeled.size());
        int soundRuns = 0;
        for (LabeledRun run : handLabeled) {
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            for (Map.Entry<Stage, ModelProbabilities> e : scorer.probabilities(run.input()).entrySet()) {
                p.put(e.getKey(), Ensemble.combine(e.getValue()));
            }
            scored.add(new ThresholdSearch.ScoredRun(run, p));
            soundRuns += run.label().faulty() ? 0 : 1;
        }
        Map<Stage, Double> current = bundle.thresholds(); // the stages it scores
        List<String> notes = new ArrayList<>();
        Map<Stage, String> kept = new EnumMap<>(Stage.class);
        int neededSound = (int) Math.ceil(1.0 / maxRunFpr - 1e-9);
        if (soundRuns < neededSound) {
            notes.add("all thresholds kept: " + soundRuns + " sound runs, at least " + neededSound
                    + " are needed to measure a run-level rate of " + percent(maxRunFpr));
            for (Stage stage : current.keySet()) {
                kept.put(stage, "kept: too few sound runs");
            }
        }
        Set<Stage> tunable = EnumSet.noneOf(Stage.class);
        for (Stage stage : current.keySet()) {
            int[] counts = counts(scored, stage);
            if (!kept.containsKey(stage) && (counts[0] < MIN_PER_CLASS || counts[1] < MIN_PER_CLASS)) {
                kept.put(stage, "kept: " + counts[1] + " faulty and " + counts[0] + " sound instances, at least "
                        + MIN_PER_CLASS + " of each are needed");
            }
            if (!kept.containsKey(stage)) {
                tunable.add(stage);
            }
        }
        double searched = confidentBudget(maxRunFpr, soundRuns, CONFIDENCE);
        Map<Stage, Double> suggested = tunable.isEmpty() ? current
                : ThresholdSearch.search(scored, searched, current, tunable).thresholds();
        MethodReport after = ThresholdSearch.measure(scored, suggested);
        if (!tunable.isEmpty() && after.runs().falsePositiveRate() > searched + 1e-12) {
            notes.add("the run-level rate is still " + percent(after.runs().falsePositiveRate())
                    + ": the stages that could be tuned cannot bring it within " + percent(searched) + " alone");
        }

        Map<String, StageSuggestion> stages = new LinkedHashMap<>();
        for (Stage stage : current.keySet()) {
            List<Double> sound = new ArrayList<>();
            List<Double> faulty = new ArrayList<>();
            for (ThresholdSearch.ScoredRun s : scored) {
                if (s.run().scoredStages().contains(stage)) {
                    (s.run().faulty(stage) ? faulty : sound).add(s.probability().get(stage));
                }
            }
            double was = current.get(stage);
            double now = suggested.get(stage);
            String note = kept.getOrDefault(stage,
                    now < was ? "lowered: more faults caught within the budget"
                            : now > was ? "raised: fewer false flags" : "unchanged: nothing did better");
            stages.put(stage.id(), new StageSuggestion(was, now, sound.size(), faulty.size(), rate(sound, now),
                    rate(faulty, now), now != was, note));
        }
        return new Suggestion(bundle.id(), maxRunFpr, searched, handLabeled.size(), stages,
                ThresholdSearch.measure(scored, current), after, List.copyOf(notes));
    }

    /**
     * The largest share k / n of {@code soundRuns} sound runs flagged for which the one-sided Clopper-Pearson upper
     * bound at {@code confidence} on the run-level rate is at most {@code maxRunFpr}; 0 when not even k = 0 shows it.
     */
    static double confidentBudget(double maxRunFpr, int soundRuns, double confidence) {
        int k = 0;
        while (k < soundRuns && upperBound(k + 1, soundRuns, confidence) <= maxRunFpr) {
            k++;
        }
        return soundRuns == 0 ? 0.0 : (double) k / soundRuns;
    }

    /**
     * The one-sided Clopper-Pearson upper bound on a rate of which k of n were seen: the rate at which k or fewer of n
     * would be seen with probability 1 - confidence, the Beta(k + 1, n - k) distribution's {@code confidence} quantile.
     */
    static double upperBound(int k, int n, double confidence) {
        if (k >= n) {
            return 1.0;
        }
        return new BetaDistribution(null, k + 1, n - k, BOUND_ACCURACY).inverseCumulativeProbability(confidence);
    }

    /** [sound, faulty] instances of a stage. */
    private static int[] counts(List<ThresholdSearch.ScoredRun> scored, Stage stage) {
        int[] counts = new int[2];
        for (ThresholdSearch.ScoredRun s : scored) {
            if (s.run().scoredStages().contains(stage)) {
                counts[s.run().faulty(stage) ? 1 : 0]++;
            }
        }
        return counts;
    }

    private static double rate(List<Double> probabilities, double threshold) {
        if (probabilities.isEmpty()) {
            return 0.0;
        }
        return (double) probabilities.stream().filter(p -> p >= threshold).count() / probabilities.size();
    }

    private static String percent(double rate) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * rate);
    }
}

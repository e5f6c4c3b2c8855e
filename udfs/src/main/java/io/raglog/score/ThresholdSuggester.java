package io.raglog.score;

import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict.ModelProbabilities;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per-stage thresholds from a team's own hand-labeled runs, for a false-positive rate they accept. For each stage
 * the suggestion is the lowest threshold (most faults caught) at which at most {@code maxFpr} of that stage's sound
 * instances are flagged: the stage-level false-positive rate, read on the stage's own probabilities before the
 * reassignment rule (which only moves a flag from retrieval to the reranker). A stage with too few sound instances
 * to measure that rate (fewer than 1 / maxFpr) keeps the bundle's threshold, and the suggestion says so. The
 * before/after figures are computed with the full decision, rule included.
 */
public final class ThresholdSuggester {

    private ThresholdSuggester() {}

    /**
     * @param sound the stage's sound, present, labeled instances; @param falsePositiveRate at the suggestion;
     * @param recall of the stage's faulty instances at the suggestion
     */
    public record StageSuggestion(double current, double suggested, int sound, int faulty, double falsePositiveRate,
            double recall, boolean changed, String note) {}

    public record Suggestion(String modelBundle, double maxFpr, int runs, Map<String, StageSuggestion> stages,
            MethodReport before, MethodReport after) {

        public Map<Stage, Double> thresholds() {
            Map<Stage, Double> out = new EnumMap<>(Stage.class);
            stages.forEach((id, s) -> out.put(Stage.of(id), s.suggested()));
            return out;
        }

        public String toTable() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "Thresholds for a stage-level false-positive rate <= %.1f%% from %d hand-labeled runs (bundle %s)%n",
                    100 * maxFpr, runs, modelBundle));
            out.append(String.format(Locale.ROOT, "%-9s %8s %10s %6s %7s %8s %8s  %s%n", "stage", "current",
                    "suggested", "sound", "faulty", "FPR", "recall", "note"));
            stages.forEach((id, s) -> out.append(String.format(Locale.ROOT, "%-9s %8.3f %10.3f %6d %7d %7.1f%% %7.1f%%  %s%n",
                    id, s.current(), s.suggested(), s.sound(), s.faulty(), 100 * s.falsePositiveRate(),
                    100 * s.recall(), s.note())));
            out.append(String.format(Locale.ROOT, "stage F1 %.3f -> %.3f, run-level FPR %.1f%% -> %.1f%%%n",
                    before.pooled().f1(), after.pooled().f1(), 100 * before.runs().falsePositiveRate(),
                    100 * after.runs().falsePositiveRate()));
            return out.toString();
        }
    }

    public static Suggestion suggest(ModelBundle bundle, List<LabeledRun> handLabeled, double maxFpr) {
        if (!(maxFpr > 0 && maxFpr < 1)) {
            throw new IllegalArgumentException("max FPR must be in (0, 1), was " + maxFpr);
        }
        Scorer scorer = new Scorer(bundle);
        List<ThresholdSearch.ScoredRun> scored = new ArrayList<>(handLabeled.size());
        for (LabeledRun run : handLabeled) {
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            for (Map.Entry<Stage, ModelProbabilities> e : scorer.probabilities(run.input()).entrySet()) {
                p.put(e.getKey(), Ensemble.combine(e.getValue()));
            }
            scored.add(new ThresholdSearch.ScoredRun(run, p));
        }
        int needed = (int) Math.ceil(1.0 / maxFpr - 1e-9);
        Map<String, StageSuggestion> stages = new LinkedHashMap<>();
        Map<Stage, Double> suggested = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            List<Double> sound = new ArrayList<>();
            List<Double> faulty = new ArrayList<>();
            for (ThresholdSearch.ScoredRun s : scored) {
                if (s.run().scoredStages().contains(stage)) {
                    (s.run().faulty(stage) ? faulty : sound).add(s.probability().get(stage));
                }
            }
            double current = bundle.threshold(stage);
            double threshold = current;
            String note;
            if (sound.size() < needed) {
                note = "kept: " + sound.size() + " sound instances, at least " + needed + " are needed to measure "
                        + String.format(Locale.ROOT, "%.1f%%", 100 * maxFpr);
            } else {
                sound.sort(Comparator.reverseOrder());
                int allowed = (int) Math.floor(maxFpr * sound.size() + 1e-9);
                // Flag strictly above the (allowed+1)-th highest sound probability: at most `allowed` sound flagged.
                threshold = allowed >= sound.size() ? 0.0 : Math.min(1.0, Math.nextUp(sound.get(allowed)));
                note = threshold < current ? "lowered: more faults caught within the budget"
                        : threshold > current ? "raised: the bundle's threshold flags too many sound runs" : "unchanged";
            }
            suggested.put(stage, threshold);
            stages.put(stage.id(), new StageSuggestion(current, threshold, sound.size(), faulty.size(),
                    rate(sound, threshold), rate(faulty, threshold), threshold != current, note));
        }
        return new Suggestion(bundle.id(), maxFpr, handLabeled.size(), stages,
                ThresholdSearch.measure(scored, bundle.thresholds()), ThresholdSearch.measure(scored, suggested));
    }

    private static double rate(List<Double> probabilities, double threshold) {
        if (probabilities.isEmpty()) {
            return 0.0;
        }
        return (double) probabilities.stream().filter(p -> p >= threshold).count() / probabilities.size();
    }
}

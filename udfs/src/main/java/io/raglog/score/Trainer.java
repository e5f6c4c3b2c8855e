package io.raglog.score;

import io.raglog.schemas.Label;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Labeled runs → a model bundle. Runs are split by a seeded hash of their run id (so a run's stages stay together
 * and the split does not depend on input order) into training, validation and test. Each stage's three models are
 * fitted on the training runs where that stage was present and labeled. The thresholds are then chosen on the
 * validation runs to maximise pooled stage-level F1 subject to a run-level false-positive budget
 * ({@link ThresholdSearch}), judged with the reassignment rule applied, exactly as the job decides. The test runs,
 * which touched neither models nor thresholds, give the bundle's evaluation report. The final models are those
 * fitted on the training split: refitting on training + validation would shift the probabilities the thresholds
 * were chosen for.
 */
public final class Trainer {

    /**
     * @param name the bundle's name (its id adds a content hash)
     * @param validationShare share of runs that choose the thresholds
     * @param testShare share of runs held out for the evaluation report (0 to skip it)
     * @param maxRunFpr the run-level false-positive budget of the threshold search, e.g. 0.05
     * @param minPerClass fewest faulty and fewest sound training instances a stage needs to be trained
     */
    public record Settings(String name, long seed, double validationShare, double testShare, double maxRunFpr,
            int minPerClass, StageModel.Settings models) {

        public Settings {
            if (validationShare <= 0 || testShare < 0 || validationShare + testShare >= 1) {
                throw new IllegalArgumentException("validation and test shares must leave runs to train on");
            }
        }

        public static Settings defaults(String name) {
            long seed = 20_260_101L;
            return new Settings(name, seed, 0.2, 0.2, 0.05, 5, StageModel.Settings.defaults(seed));
        }
    }

    enum Split { TRAIN, VALIDATION, TEST }

    private Trainer() {}

    public static ModelBundle train(List<LabeledRun> runs, Settings settings, Instant trainedAt) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no labeled runs to train on");
        }
        FeatureSpace space = featureSpace(runs);
        String judge = judge(runs);
        Map<Split, List<LabeledRun>> split = new EnumMap<>(Split.class);
        for (Split s : Split.values()) {
            split.put(s, new ArrayList<>());
        }
        for (LabeledRun run : runs) {
            split.get(split(run.runId(), settings)).add(run);
        }
        List<LabeledRun> train = split.get(Split.TRAIN);
        List<LabeledRun> validation = split.get(Split.VALIDATION);
        if (validation.isEmpty()) {
            throw new IllegalArgumentException(runs.size() + " runs leave no validation run to choose thresholds on");
        }

        Map<Stage, StageModel> models = new EnumMap<>(Stage.class);
        Map<String, TrainingSummary.StageCounts> stageCounts = new LinkedHashMap<>();
        try {
            for (Stage stage : Stage.values()) {
                List<double[]> rows = new ArrayList<>();
                List<Integer> labels = new ArrayList<>();
                for (LabeledRun run : train) {
                    if (run.scoredStages().contains(stage)) {
                        rows.add(space.row(run.input().features()));
                        labels.add(run.faulty(stage) ? 1 : 0);
                    }
                }
                int faulty = (int) labels.stream().filter(l -> l == 1).count();
                stageCounts.put(stage.id(), new TrainingSummary.StageCounts(rows.size(), faulty));
                if (faulty < settings.minPerClass() || rows.size() - faulty < settings.minPerClass()) {
                    throw new IllegalArgumentException("stage " + stage.id() + " has " + faulty + " faulty and "
                            + (rows.size() - faulty) + " sound training instances; each needs at least "
                            + settings.minPerClass());
                }
                models.put(stage, StageModel.fit(rows.toArray(double[][]::new),
                        labels.stream().mapToInt(Integer::intValue).toArray(), settings.models()));
            }
        } catch (RuntimeException e) {
            models.values().forEach(StageModel::close);
            throw e;
        }

        List<ThresholdSearch.ScoredRun> scored = new ArrayList<>(validation.size());
        for (LabeledRun run : validation) {
            double[] raw = space.row(run.input().features());
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            for (Stage stage : run.input().present()) {
                p.put(stage, Ensemble.combine(models.get(stage).predict(raw)));
            }
            scored.add(new ThresholdSearch.ScoredRun(run, p));
        }
        ThresholdSearch.Result thresholds = ThresholdSearch.search(scored, settings.maxRunFpr());

        TrainingSummary summary = new TrainingSummary(trainedAt, runs.size(), train.size(), validation.size(),
                split.get(Split.TEST).size(), stageCounts, distinct(runs, true), distinct(runs, false), origins(runs),
                judge, space.version(), settings,
                "per-stage thresholds maximising pooled stage-level F1 on the validation split, with the reassignment "
                        + "rule applied, subject to a run-level false-positive rate <= " + settings.maxRunFpr(),
                thresholds.f1(), thresholds.runFpr());
        ModelBundle draft = ModelBundle.create(settings.name(), trainedAt, space, judge, thresholds.thresholds(),
                models, summary, null);
        List<LabeledRun> test = split.get(Split.TEST);
        if (test.isEmpty()) {
            return draft;
        }
        EvaluationReport report = Evaluator.evaluate("held-out test split (" + test.size() + " runs, "
                + Math.round(100 * settings.testShare()) + "% of " + runs.size() + ")", new Scorer(draft), test);
        ModelBundle bundle = draft.withEvaluation(report);
        draft.close();
        return bundle;
    }

    /** The split a run falls in: a seeded FNV-1a hash of its id, so it is stable across input orders and reruns. */
    static Split split(String runId, Settings settings) {
        long h = 0xcbf29ce484222325L ^ settings.seed();
        for (byte b : runId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        double u = (h >>> 11) * 0x1.0p-53;
        if (u < settings.testShare()) {
            return Split.TEST;
        }
        return u < settings.testShare() + settings.validationShare() ? Split.VALIDATION : Split.TRAIN;
    }

    /** The feature list of the training features: one version, names in the order the checks wrote them. */
    private static FeatureSpace featureSpace(List<LabeledRun> runs) {
        RunFeatures first = runs.get(0).input().features();
        for (LabeledRun run : runs) {
            String version = run.input().features().featureListVersion();
            if (!first.featureListVersion().equals(version)) {
                throw new IllegalArgumentException("training features mix feature lists " + first.featureListVersion()
                        + " and " + version);
            }
        }
        return new FeatureSpace(first.featureListVersion(), new ArrayList<>(first.features().keySet()));
    }

    /** One judge made all training features; a bundle trained on a mix could not say whose answers it expects. */
    private static String judge(List<LabeledRun> runs) {
        TreeSet<String> judges = new TreeSet<>();
        for (LabeledRun run : runs) {
            RunFeatures f = run.input().features();
            judges.add(f.llm() == null ? "none" : f.llm().judge());
        }
        if (judges.size() != 1) {
            throw new IllegalArgumentException("training features come from several judges " + judges
                    + "; train one bundle per judge");
        }
        return judges.first();
    }

    private static List<String> distinct(List<LabeledRun> runs, boolean pipelines) {
        TreeSet<String> out = new TreeSet<>();
        for (LabeledRun run : runs) {
            String v = pipelines ? run.label().pipeline() : run.label().profile();
            if (v != null) {
                out.add(v);
            }
        }
        return List.copyOf(out);
    }

    private static Map<String, Integer> origins(List<LabeledRun> runs) {
        Map<String, Integer> out = new TreeMap<>();
        for (LabeledRun run : runs) {
            Label label = run.label();
            out.merge(label.origin() == null ? "sound" : label.origin(), 1, Integer::sum);
        }
        return out;
    }
}

package io.raglog.training;

import io.raglog.schemas.Stage;
import io.raglog.score.AnswerKindRule;
import io.raglog.score.SureSignsRule;
import io.raglog.score.ContextAssemblyRule;
import io.raglog.score.Scorer;
import io.raglog.score.StageMasks;
import io.raglog.score.TierGate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Chooses the tier gate's bounds on labeled runs scored both ways (out of fold in training): by the stage models
 * with every LLM feature, deciding as default mode does (thresholds and the reassignment rule), and by the cheap-only
 * models. A bound setting is feasible when the tiered decisions (skipped runs decided by the gate, the others as in
 * default mode) lose at most {@code maxF1Loss} of default mode's pooled stage-level F1, the gate charged for its harm
 * only (below), and keep the run-level false-positive rate within the training budget (or default mode's rate, if
 * that is higher). Among feasible settings it maximises the LLM calls saved, i.e. the calls of the skipped runs.
 *
 * <p>The loss is held to its budget with {@link #CONFIDENCE} confidence, not just on average: the runs are resampled
 * ({@link #REPLICATES} Poisson-bootstrap replicates, seeded) and a setting is taken only if its loss stays within the
 * budget in that share of the replicates: a point estimate at the edge of the budget is a coin flip on new runs. It
 * did not cover everything on its own: with the two-sided loss and one bound on the probability it kept the bounds
 * the point estimate chose (0.579 for the default bundle; loss 0.0038 out of fold, 0.0078 at the 90 % quantile),
 * which lost 0.003 on 1,500 held-out runs but 0.017 on the bundle's 800-run test split and 0.017 on an unseen
 * profile (docs/model-card.md). The two changes below took those to 0.000, 0.005 and 0.006, at 82 % fewer calls.
 *
 * <p>The loss the budget holds is one-sided: on a skipped run the gate is charged for every true positive of default
 * mode it drops and every false positive it adds, and credited for nothing it does better (a false flag it clears, a
 * fault it finds that default mode missed). Why: with the two-sided loss the search spent the budget on such credit.
 * For the default bundle the gate's cheap generate verdicts found 3.4 more faults per 1,000 runs than default mode out
 * of fold, which paid for the reranker and rewriter faults it dropped (-7.8 and -4.1 per 1,000); on the test split the
 * generate credit was gone (-1.2) and the loss was 0.017. Credit where the cheap models beat the LLM-informed ones is
 * luck of the sample; harm where they disagree is what the gate does. On any runs the one-sided loss is at least the
 * two-sided one, so the budget still bounds the real loss.
 *
 * <p>Two numbers, shared by every stage, on the log-odds distance of the cheap-only fault probability from the
 * stage's default threshold: "clearly healthy" below {@code u}, "clearly faulty" from {@code v}, searched over a grid
 * of the observed distances. Why relative to the thresholds: the thresholds range from 0.25 (rewrite) to 0.69
 * (embed), and one bound on the probability itself (0.579 for the default bundle) called a reranker "clearly healthy"
 * at probabilities where default mode flags it (threshold 0.430): every reranker fault the gate dropped on the test
 * split had a cheap probability between 0.36 and 0.54. The thresholds are already chosen, so this adds no knob. Why
 * not ten (two per stage): that was tried first. A coordinate search over per-stage bounds reached 0.005 loss out of
 * fold and 0.019 on the bundle's own held-out test split; with that many knobs it fits the out-of-fold runs' noise.
 * Two knobs chosen on 3,200 runs barely can. The manifest stores the bounds per stage (each stage's two distances
 * turned back into probabilities), so the job's rule and the bundle format are unchanged.
 */
final class TierGateSearch {

    /** Grid points per bound: 200 x 200 / 2 settings, each judged on every run. */
    static final int MAX_CANDIDATES = 200;
    private static final double EPS = 1e-12;
    private static final Stage[] STAGES = Stage.values();

    record Result(Map<Stage, TierGate.Bounds> bounds, TierValidation validation) {}

    /**
     * The runs as arrays: what the search evaluates millions of times.
     *
     * @param defaultCounts default mode's pooled true positives, false positives and false negatives, the same for
     *     every setting
     */
    private record Table(int[] present, int[] scored, int[] faulty, int[] defaultFlagged, boolean[] sound,
            double[][] cheap, int[] calls, double[] thresholdLogit, long[] defaultCounts, boolean[] lostByAssembly,
            boolean[] refused, boolean[] wrongKind, int[] sureSigns) {

        int size() {
            return calls.length;
        }

        /**
         * What the gate's verdict on run {@code i} flags once skipped: its own flags, then the context-assembly rule
         * on the gate's probability, the answer-kind rule and the sure-signs rule, as the job decides a skipped
         * run ({@code Scorer.decideSkipped}).
         */
        int skippedFlags(int i, int gate) {
            int assembly = ContextAssemblyRule.applyToMask(gate, present[i], lostByAssembly[i], refused[i],
                    cheap[i][Stage.ASSEMBLE.ordinal()]);
            int answerKind = AnswerKindRule.applyToMask(assembly, present[i], wrongKind[i],
                    cheap[i][Stage.GENERATE.ordinal()]);
            return SureSignsRule.applyToMask(answerKind, present[i], sureSigns[i]);
        }
    }

    /** Share of bootstrap replicates in which the chosen setting's loss must stay within the budget. */
    static final double CONFIDENCE = 0.9;
    static final int REPLICATES = 200;
    private static final long BOOTSTRAP_SEED = 20_261_129L;

    /**
     * Pooled counts of one setting.
     *
     * @param f1 the tiered decisions' pooled stage F1
     * @param chargedF1 the same with the gate charged for its harm only (see the class comment): what the budget holds
     */
    private record Measure(int skipped, long savedCalls, double f1, double chargedF1, double runFpr) {}

    /** A grid setting (log-odds distances from the thresholds) with its point estimate. */
    private record Setting(double healthyDistance, double faultyDistance, Measure measure) {}

    private TierGateSearch() {}

    /**
     * @param full the runs with their stage models' probabilities
     * @param cheap the same runs' cheap-only probabilities, by run id
     * @param thresholds the stage thresholds default mode decides with
     */
    static Result search(List<ThresholdSearch.ScoredRun> full, Map<String, Map<Stage, Double>> cheap,
            Map<Stage, Double> thresholds, double maxF1Loss, double maxRunFpr) {
        if (!(maxF1Loss >= 0)) {
            throw new IllegalArgumentException("the tier gate's F1 loss budget must be >= 0, was " + maxF1Loss);
        }
        Table table = table(full, cheap, thresholds);
        double[] h = new double[STAGES.length];
        double[] f = new double[STAGES.length];
        double[] healthyBelow = new double[STAGES.length];
        double[] faultyFrom = new double[STAGES.length];
        java.util.Arrays.fill(faultyFrom, TierGate.NEVER_FAULTY);
        Measure none = measure(table, healthyBelow, faultyFrom);
        double fprCap = Math.max(maxRunFpr, none.runFpr());

        List<Double> grid = grid(table);
        List<Setting> feasible = new ArrayList<>();
        for (int i = 0; i < grid.size(); i++) {
            for (int j = i; j < grid.size(); j++) {
                bounds(table, grid.get(i), grid.get(j), h, f);
                Measure m = measure(table, h, f);
                if (m.skipped() > 0 && feasible(m, none, maxF1Loss, fprCap)) {
                    feasible.add(new Setting(grid.get(i), grid.get(j), m));
                }
            }
        }
        // most calls saved first; the first whose loss holds in CONFIDENCE of the replicates wins
        feasible.sort((a, b) -> better(a.measure(), b.measure()) ? -1 : better(b.measure(), a.measure()) ? 1 : 0);
        Bootstrap bootstrap = new Bootstrap(table);
        Measure current = none;
        double upper = 0.0;
        for (Setting candidate : feasible) {
            bounds(table, candidate.healthyDistance(), candidate.faultyDistance(), h, f);
            double q = bootstrap.lossQuantile(h, f, CONFIDENCE);
            if (q <= maxF1Loss + EPS) {
                current = candidate.measure();
                upper = q;
                System.arraycopy(h, 0, healthyBelow, 0, h.length);
                System.arraycopy(f, 0, faultyFrom, 0, f.length);
                break;
            }
        }
        Map<Stage, TierGate.Bounds> bounds = new EnumMap<>(Stage.class);
        for (Stage stage : STAGES) {
            bounds.put(stage, new TierGate.Bounds(healthyBelow[stage.ordinal()], faultyFrom[stage.ordinal()]));
        }
        int n = table.size();
        long allCalls = 0;
        for (int c : table.calls()) {
            allCalls += c;
        }
        TierValidation v = new TierValidation(n, current.skipped(), share(current.skipped(), n), share(allCalls, n),
                share(allCalls - current.savedCalls(), n), share(current.savedCalls(), allCalls), none.f1(),
                current.f1(), none.runFpr(), current.runFpr(), maxF1Loss, CONFIDENCE, upper);
        return new Result(bounds, v);
    }

    /**
     * Poisson-bootstrap replicates of the runs (each run weighted by a Poisson(1) count per replicate). Default mode's
     * counts per replicate are fixed; a setting changes only the runs it skips, so only those are re-added.
     */
    private static final class Bootstrap {
        private final Table t;
        private final int[][] weights;
        private final long[][] defaultCounts;
        private final int[][] perRunDefault;

        Bootstrap(Table t) {
            this.t = t;
            java.util.Random random = new java.util.Random(BOOTSTRAP_SEED);
            weights = new int[REPLICATES][t.size()];
            defaultCounts = new long[REPLICATES][3];
            perRunDefault = new int[t.size()][];
            for (int i = 0; i < t.size(); i++) {
                perRunDefault[i] = counts(t.defaultFlagged()[i], t.scored()[i], t.faulty()[i]);
            }
            for (int b = 0; b < REPLICATES; b++) {
                for (int i = 0; i < t.size(); i++) {
                    int w = poisson(random);
                    weights[b][i] = w;
                    for (int k = 0; k < 3; k++) {
                        defaultCounts[b][k] += (long) w * perRunDefault[i][k];
                    }
                }
            }
        }

        /** The {@code confidence} quantile of default F1 minus the charged tiered F1 over the replicates. */
        double lossQuantile(double[] healthyBelow, double[] faultyFrom, double confidence) {
            List<Integer> changed = new ArrayList<>();
            List<int[]> delta = new ArrayList<>();
            for (int i = 0; i < t.size(); i++) {
                int gate = TierGate.flaggedIfSkipped(t.cheap()[i], t.present()[i], healthyBelow, faultyFrom);
                if (gate == TierGate.CHECK) {
                    continue;
                }
                gate = t.skippedFlags(i, gate);
                int[] harm = harm(gate, t.defaultFlagged()[i], t.scored()[i], t.faulty()[i]);
                if (harm[0] != 0 || harm[1] != 0) {
                    changed.add(i);
                    delta.add(new int[] {-harm[0], harm[1], harm[0]});
                }
            }
            double[] losses = new double[REPLICATES];
            for (int b = 0; b < REPLICATES; b++) {
                long[] d = defaultCounts[b];
                long tp = d[0];
                long fp = d[1];
                long fn = d[2];
                for (int k = 0; k < changed.size(); k++) {
                    int w = weights[b][changed.get(k)];
                    tp += (long) w * delta.get(k)[0];
                    fp += (long) w * delta.get(k)[1];
                    fn += (long) w * delta.get(k)[2];
                }
                losses[b] = f1(d[0], d[1], d[2]) - f1(tp, fp, fn);
            }
            java.util.Arrays.sort(losses);
            return losses[Math.min(REPLICATES - 1, (int) Math.ceil(confidence * REPLICATES) - 1)];
        }

        /** Knuth's method; Poisson(1) needs a handful of uniforms. */
        private static int poisson(java.util.Random random) {
            double limit = Math.exp(-1.0);
            double p = 1.0;
            int k = 0;
            do {
                k++;
                p *= random.nextDouble();
            } while (p > limit);
            return k - 1;
        }
    }

    private static boolean feasible(Measure m, Measure untiered, double allowedLoss, double fprCap) {
        return untiered.f1() - m.chargedF1() <= allowedLoss + EPS && m.runFpr() <= fprCap + EPS;
    }

    /**
     * What the gate's verdict on a skipped run costs against default mode's: the true positives it drops and the false
     * positives it adds ({@code [dropped, added]}), nothing for what it does better.
     */
    static int[] harm(int gateFlagged, int defaultFlagged, int scored, int faulty) {
        return new int[] {dropped(gateFlagged, defaultFlagged, scored, faulty),
            added(gateFlagged, defaultFlagged, scored, faulty)};
    }

    /** Default mode's true positives the gate's verdict drops. */
    private static int dropped(int gateFlagged, int defaultFlagged, int scored, int faulty) {
        return Integer.bitCount(defaultFlagged & ~gateFlagged & faulty & scored);
    }

    /** False positives the gate's verdict adds to default mode's. */
    private static int added(int gateFlagged, int defaultFlagged, int scored, int faulty) {
        return Integer.bitCount(gateFlagged & ~defaultFlagged & ~faulty & scored);
    }

    /** True positives, false positives and false negatives of one run's flags. */
    private static int[] counts(int flagged, int scored, int faulty) {
        int f = flagged & scored;
        return new int[] {Integer.bitCount(f & faulty), Integer.bitCount(f & ~faulty),
            Integer.bitCount(~f & faulty & scored)};
    }

    private static double f1(long tp, long fp, long fn) {
        return 2 * tp + fp + fn == 0 ? 0.0 : 2.0 * tp / (2.0 * tp + fp + fn);
    }

    /**
     * Per-stage probability bounds from the two shared log-odds distances: the stage's threshold moved by {@code u}
     * (healthy below) and {@code v} (faulty from); infinite distances are "never".
     */
    private static void bounds(Table t, double u, double v, double[] healthyBelow, double[] faultyFrom) {
        for (int s = 0; s < STAGES.length; s++) {
            double logit = t.thresholdLogit()[s];
            healthyBelow[s] = u == Double.NEGATIVE_INFINITY ? TierGate.NEVER_HEALTHY : sigmoid(logit + u);
            faultyFrom[s] = v == Double.POSITIVE_INFINITY ? TierGate.NEVER_FAULTY : sigmoid(logit + v);
        }
    }

    private static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    /** Log-odds, with the probability kept off 0 and 1 so that the distances stay finite. */
    static double logit(double p) {
        double q = Math.min(1 - 1e-12, Math.max(1e-12, p));
        return Math.log(q / (1 - q));
    }

    /** More calls saved, then more runs skipped, then the higher F1; ties keep the current bound. */
    private static boolean better(Measure a, Measure b) {
        if (a.savedCalls() != b.savedCalls()) {
            return a.savedCalls() > b.savedCalls();
        }
        if (a.skipped() != b.skipped()) {
            return a.skipped() > b.skipped();
        }
        return a.f1() > b.f1() + EPS;
    }

    private static Measure measure(Table t, double[] healthyBelow, double[] faultyFrom) {
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int dropped = 0;
        int added = 0;
        int sound = 0;
        int soundFlagged = 0;
        int skipped = 0;
        long saved = 0;
        for (int i = 0; i < t.size(); i++) {
            int gate = TierGate.flaggedIfSkipped(t.cheap()[i], t.present()[i], healthyBelow, faultyFrom);
            int flagged;
            if (gate == TierGate.CHECK) {
                flagged = t.defaultFlagged()[i];
            } else {
                gate = t.skippedFlags(i, gate);
                flagged = gate;
                skipped++;
                saved += t.calls()[i];
                dropped += dropped(gate, t.defaultFlagged()[i], t.scored()[i], t.faulty()[i]);
                added += added(gate, t.defaultFlagged()[i], t.scored()[i], t.faulty()[i]);
            }
            int scored = t.scored()[i];
            int faulty = t.faulty()[i];
            flagged &= scored;
            tp += Integer.bitCount(flagged & faulty);
            fp += Integer.bitCount(flagged & ~faulty);
            fn += Integer.bitCount(~flagged & faulty & scored);
            if (t.sound()[i]) {
                sound++;
                soundFlagged += flagged != 0 ? 1 : 0;
            }
        }
        long[] d = t.defaultCounts();
        double f1 = f1(tp, fp, fn);
        double charged = f1(d[0] - dropped, d[1] + added, d[2] + dropped);
        return new Measure(skipped, saved, f1, charged, share(soundFlagged, sound));
    }

    private static Table table(List<ThresholdSearch.ScoredRun> full, Map<String, Map<Stage, Double>> cheap,
            Map<Stage, Double> thresholds) {
        int n = full.size();
        int[] present = new int[n];
        int[] scored = new int[n];
        int[] faulty = new int[n];
        int[] defaultFlagged = new int[n];
        boolean[] sound = new boolean[n];
        double[][] cheapP = new double[n][STAGES.length];
        int[] calls = new int[n];
        long[] defaultCounts = new long[3];
        double[] thresholdLogit = new double[STAGES.length];
        boolean[] lost = new boolean[n];
        boolean[] refused = new boolean[n];
        boolean[] wrongKind = new boolean[n];
        int[] sureSigns = new int[n];
        for (Stage stage : STAGES) {
            Double t = thresholds.get(stage); // none for a stage the bundle does not score: never present here
            thresholdLogit[stage.ordinal()] = t == null ? 0 : logit(t);
        }
        for (int i = 0; i < n; i++) {
            ThresholdSearch.ScoredRun r = full.get(i);
            LabeledRun run = r.run();
            Map<Stage, Double> p = cheap.get(run.runId());
            if (p == null) {
                throw new IllegalArgumentException("run " + run.runId() + " has no cheap-only probabilities");
            }
            // a stage the models do not score (no training run showed it) is not present to the gate either
            java.util.Set<Stage> scoredPresent = java.util.EnumSet.noneOf(Stage.class);
            run.input().present().stream().filter(p::containsKey).forEach(scoredPresent::add);
            present[i] = StageMasks.of(scoredPresent);
            scored[i] = StageMasks.of(run.scoredStages());
            for (Stage stage : run.scoredStages()) {
                faulty[i] |= run.faulty(stage) ? 1 << stage.ordinal() : 0;
            }
            defaultFlagged[i] = StageMasks.of(Scorer.decide(r.probability(), thresholds, run.input().present(),
                    run.input().features()).flagged());
            sound[i] = run.label().stages() == null || !run.label().stages().anyFaulty();
            for (Stage stage : scoredPresent) {
                cheapP[i][stage.ordinal()] = p.get(stage);
            }
            calls[i] = run.input().features().llm() == null ? 0 : run.input().features().llm().calls();
            lost[i] = ContextAssemblyRule.lostByAssembly(run.input().features());
            refused[i] = ContextAssemblyRule.refused(run.input().features());
            wrongKind[i] = AnswerKindRule.wrongKind(run.input().features());
            sureSigns[i] = SureSignsRule.signs(run.input().features());
            int[] c = counts(defaultFlagged[i], scored[i], faulty[i]);
            for (int k = 0; k < 3; k++) {
                defaultCounts[k] += c[k];
            }
        }
        return new Table(present, scored, faulty, defaultFlagged, sound, cheapP, calls, thresholdLogit,
                defaultCounts, lost, refused, wrongKind, sureSigns);
    }

    /**
     * Bound candidates: "never" at both ends and the midpoints between the log-odds distances of the cheap
     * probabilities from their stage's threshold observed on any stage, thinned to {@link #MAX_CANDIDATES}.
     */
    private static List<Double> grid(Table t) {
        TreeSet<Double> seen = new TreeSet<>();
        for (int i = 0; i < t.size(); i++) {
            for (int s = 0; s < STAGES.length; s++) {
                if ((t.present()[i] & (1 << s)) != 0) {
                    seen.add(logit(t.cheap()[i][s]) - t.thresholdLogit()[s]);
                }
            }
        }
        List<Double> values = new ArrayList<>(seen);
        List<Double> cuts = new ArrayList<>();
        for (int i = 1; i < values.size(); i++) {
            cuts.add((values.get(i - 1) + values.get(i)) / 2);
        }
        List<Double> out = new ArrayList<>();
        out.add(Double.NEGATIVE_INFINITY);
        out.addAll(ThresholdSearch.thin(cuts, MAX_CANDIDATES));
        out.add(Double.POSITIVE_INFINITY);
        return out;
    }

    private static double share(double part, double whole) {
        return whole == 0 ? 0.0 : part / whole;
    }
}

package io.raglog.score;

import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Chooses the tier gate's bounds on labeled runs scored both ways (out of fold in training): by the stage models
 * with every LLM feature, deciding as default mode does (thresholds and the reassignment rule), and by the cheap-only
 * models. A bound setting is feasible when the tiered decisions (skipped runs decided by the gate, the others as in
 * default mode) lose at most {@code maxF1Loss} of default mode's pooled stage-level F1 and keep the run-level
 * false-positive rate within the training budget (or default mode's rate, if that is higher). Among feasible
 * settings it maximises the LLM calls saved, i.e. the calls of the skipped runs.
 *
 * <p>How: coordinate ascent over each stage's two bounds (candidates: midpoints between observed cheap
 * probabilities), with the allowed loss raised in steps up to {@code maxF1Loss}. Handing out the loss budget in steps
 * keeps the first stage tuned from spending all of it on its own skips; each step every stage takes what saves the
 * most calls within the loss allowed so far.
 */
final class TierGateSearch {

    static final int MAX_CANDIDATES = 100;
    static final int BUDGET_STEPS = 10;
    private static final int MAX_PASSES = 4;
    private static final double EPS = 1e-12;
    private static final Stage[] STAGES = Stage.values();

    record Result(Map<Stage, TierGate.Bounds> bounds, TierValidation validation) {}

    /** The runs as arrays: what the search evaluates millions of times. */
    private record Table(int[] present, int[] scored, int[] faulty, int[] defaultFlagged, boolean[] sound,
            double[][] cheap, int[] calls) {

        int size() {
            return calls.length;
        }
    }

    /** Pooled counts of one setting. */
    private record Measure(int skipped, long savedCalls, double f1, double runFpr) {}

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
        double[] healthyBelow = new double[STAGES.length];
        double[] faultyFrom = new double[STAGES.length];
        java.util.Arrays.fill(faultyFrom, TierGate.NEVER_FAULTY);
        Measure none = measure(table, healthyBelow, faultyFrom);
        double fprCap = Math.max(maxRunFpr, none.runFpr());
        List<List<Double>> candidates = candidates(table);

        Measure current = none;
        for (int step = 1; step <= BUDGET_STEPS; step++) {
            double allowed = maxF1Loss * step / BUDGET_STEPS;
            for (int pass = 0; pass < MAX_PASSES; pass++) {
                boolean changed = false;
                for (Stage stage : STAGES) {
                    int s = stage.ordinal();
                    for (double[] bound : List.of(healthyBelow, faultyFrom)) {
                        double kept = bound[s];
                        double best = kept;
                        Measure bestMeasure = current;
                        List<Double> tries = new ArrayList<>(candidates.get(s));
                        tries.add(bound == healthyBelow ? TierGate.NEVER_HEALTHY : TierGate.NEVER_FAULTY);
                        for (double t : tries) {
                            bound[s] = t;
                            if (healthyBelow[s] > faultyFrom[s]) {
                                continue;
                            }
                            Measure m = measure(table, healthyBelow, faultyFrom);
                            if (feasible(m, none, allowed, fprCap) && better(m, bestMeasure)) {
                                best = t;
                                bestMeasure = m;
                            }
                        }
                        bound[s] = best;
                        if (best != kept) {
                            changed = true;
                            current = bestMeasure;
                        }
                    }
                }
                if (!changed) {
                    break;
                }
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
                current.f1(), none.runFpr(), current.runFpr(), maxF1Loss);
        return new Result(bounds, v);
    }

    private static boolean feasible(Measure m, Measure untiered, double allowedLoss, double fprCap) {
        return untiered.f1() - m.f1() <= allowedLoss + EPS && m.runFpr() <= fprCap + EPS;
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
                flagged = gate;
                skipped++;
                saved += t.calls()[i];
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
        double f1 = 2 * tp + fp + fn == 0 ? 0.0 : 2.0 * tp / (2.0 * tp + fp + fn);
        return new Measure(skipped, saved, f1, share(soundFlagged, sound));
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
        for (int i = 0; i < n; i++) {
            ThresholdSearch.ScoredRun r = full.get(i);
            LabeledRun run = r.run();
            Map<Stage, Double> p = cheap.get(run.runId());
            if (p == null) {
                throw new IllegalArgumentException("run " + run.runId() + " has no cheap-only probabilities");
            }
            present[i] = mask(run.input().present());
            scored[i] = mask(run.scoredStages());
            for (Stage stage : run.scoredStages()) {
                faulty[i] |= run.faulty(stage) ? 1 << stage.ordinal() : 0;
            }
            defaultFlagged[i] = mask(Scorer.decide(r.probability(), thresholds, run.input().present(),
                    run.input().features().evidenceFlow()).flagged());
            sound[i] = run.label().stages() == null || !run.label().stages().anyFaulty();
            for (Stage stage : run.input().present()) {
                cheapP[i][stage.ordinal()] = p.get(stage);
            }
            calls[i] = run.input().features().llm() == null ? 0 : run.input().features().llm().calls();
        }
        return new Table(present, scored, faulty, defaultFlagged, sound, cheapP, calls);
    }

    private static List<List<Double>> candidates(Table t) {
        List<List<Double>> out = new ArrayList<>();
        for (int s = 0; s < STAGES.length; s++) {
            TreeSet<Double> seen = new TreeSet<>();
            for (int i = 0; i < t.size(); i++) {
                if ((t.present()[i] & (1 << s)) != 0) {
                    seen.add(t.cheap()[i][s]);
                }
            }
            List<Double> values = new ArrayList<>(seen);
            List<Double> cuts = new ArrayList<>();
            for (int i = 1; i < values.size(); i++) {
                cuts.add((values.get(i - 1) + values.get(i)) / 2);
            }
            out.add(thin(cuts));
        }
        return out;
    }

    private static List<Double> thin(List<Double> cuts) {
        if (cuts.size() <= MAX_CANDIDATES) {
            return cuts;
        }
        List<Double> out = new ArrayList<>(MAX_CANDIDATES);
        for (int i = 0; i < MAX_CANDIDATES; i++) {
            out.add(cuts.get((int) Math.round((double) i * (cuts.size() - 1) / (MAX_CANDIDATES - 1))));
        }
        return out;
    }

    private static int mask(Iterable<Stage> stages) {
        int m = 0;
        for (Stage stage : stages) {
            m |= 1 << stage.ordinal();
        }
        return m;
    }

    private static double share(double part, double whole) {
        return whole == 0 ? 0.0 : part / whole;
    }
}

package io.raglog.training;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.score.Scorer;
import io.raglog.score.TierGate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures a model bundle on labeled runs the way the issue asks, next to the two {@link Baselines}: stage-level F1
 * pooled over every present, labeled stage of every run; precision, recall and F1 per stage; the run-level
 * false-positive rate (a run whose only trouble is a knowledge gap is sound: no stage could have answered); the share
 * of faulty-but-correct-answer runs in which a faulty stage was flagged; the knowledge-gap decision's precision, recall
 * and F1 ({@link KnowledgeGapReport}). With a bundle that has a tier gate, tiered mode too ({@link TieredReport}), from
 * the same features.
 */
public final class Evaluator {

    /** Verdicts made only to be compared carry this time: an evaluation is a pure function of its inputs. */
    private static final Instant EVALUATED_AT = Instant.EPOCH;

    private Evaluator() {}

    public static EvaluationReport evaluate(String dataset, Scorer scorer, List<LabeledRun> runs) {
        List<RunOutcome> raglog = new ArrayList<>(runs.size());
        List<RunOutcome> tiered = new ArrayList<>(runs.size());
        TierGate gate = scorer.bundle().tierGate().orElse(null);
        int skipped = 0;
        long[] usageDefault = new long[3];
        long[] usageTiered = new long[3];
        List<RunOutcome> answerOnly = new ArrayList<>(runs.size());
        List<RunOutcome> rulesOnly = new ArrayList<>(runs.size());
        Set<String> judges = new LinkedHashSet<>();
        int stageInstances = 0;
        int presentUnlabeled = 0;
        int unlabeledFlagged = 0;
        int labeledAbsent = 0;
        KnowledgeGapTally gaps = new KnowledgeGapTally();
        FaultKindRecall.Tally byKind = new FaultKindRecall.Tally();
        for (LabeledRun run : runs) {
            Set<Stage> scored = run.scoredStages();
            stageInstances += scored.size();
            for (Stage stage : Stage.values()) {
                boolean labeled = run.label().stages() != null && run.label().stages().get(stage) != null;
                presentUnlabeled += run.input().has(stage) && !labeled ? 1 : 0;
                labeledAbsent += !run.input().has(stage) && labeled ? 1 : 0;
            }
            if (run.input().features().llm() != null) {
                judges.add(run.input().features().llm().judge());
            }
            Verdict verdict = scorer.score(run.input(), EVALUATED_AT);
            Set<Stage> flagged = new LinkedHashSet<>(verdict.flaggedStages());
            gaps.add(run, scored, verdict);
            for (Stage stage : flagged) {
                boolean labeled = run.label().stages() != null && run.label().stages().get(stage) != null;
                unlabeledFlagged += run.input().has(stage) && !labeled ? 1 : 0;
            }
            raglog.add(outcome(run, scored, flagged));
            byKind.add(run.label(), scored, flagged);
            if (gate != null) {
                TierGate.Decision d = gate.decide(run.input());
                long[] usage = usage(run);
                for (int i = 0; i < usage.length; i++) {
                    usageDefault[i] += usage[i];
                    usageTiered[i] += d.skip() ? 0 : usage[i];
                }
                skipped += d.skip() ? 1 : 0;
                tiered.add(outcome(run, scored, d.skip() ? scorer.flaggedIfSkipped(run.input(), d) : flagged));
            }
            answerOnly.add(outcome(run, scored, Baselines.ANSWER_ONLY.flag(run)));
            rulesOnly.add(outcome(run, scored, Baselines.RULES_ONLY.flag(run)));
        }
        Map<String, MethodReport> byOrigin = new LinkedHashMap<>();
        for (String origin : List.of(Label.ORIGIN_INJECTED, Label.ORIGIN_NATURAL)) {
            List<RunOutcome> some = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                String o = runs.get(i).label().origin();
                if (o == null || o.equals(origin)) {
                    some.add(raglog.get(i));
                }
            }
            if (some.stream().anyMatch(RunOutcome::faulty)) {
                byOrigin.put(origin, MethodReport.of("raglog", origin + " faults and sound runs", some));
            }
        }
        List<String> notes = new ArrayList<>();
        if (presentUnlabeled > 0) {
            // Left out of every figure, but not hidden: a deployed bundle flags these too (e.g. retrieval on questions
            // the corpus cannot answer, which no log can tell from a retrieval miss).
            notes.add(presentUnlabeled + " present stages had no label and were left out; raglog flagged "
                    + unlabeledFlagged + " of them");
        }
        if (labeledAbsent > 0) {
            notes.add(labeledAbsent + " labeled stages were not present in the assembled run and were not scored");
        }
        if (!judges.contains(scorer.bundle().judge())) {
            notes.add("features came from judge " + judges + " but the bundle was trained on judge "
                    + scorer.bundle().judge());
        }
        TieredReport tieredReport = null;
        if (gate != null) {
            MethodReport defaultMode = MethodReport.of("raglog", "default", raglog);
            MethodReport tieredMode = MethodReport.of("tiered", "runs the tier gate decides from the cheap checks "
                    + "(every stage clearly healthy, or one clearly faulty) get the gate's cheap-only verdict and no "
                    + "LLM call; the others are scored as raglog", tiered);
            double n = Math.max(1, runs.size());
            tieredReport = new TieredReport(tieredMode, skipped, skipped / n, usageDefault[0] / n,
                    usageTiered[0] / n, usageDefault[0] == 0 ? 0.0 : 1.0 - (double) usageTiered[0] / usageDefault[0],
                    usageDefault[1] / n, usageTiered[1] / n, usageDefault[2] / n, usageTiered[2] / n,
                    defaultMode.pooled().f1() - tieredMode.pooled().f1());
        }
        return new EvaluationReport(dataset, scorer.bundle().id(), String.join(", ", judges), runs.size(),
                stageInstances,
                MethodReport.of("raglog", "per-stage ensemble (1/3 logistic regression, 1/2 gradient-boosted trees, "
                        + "1/6 extra-trees) against per-stage thresholds, then the reranker-reassignment rule", raglog),
                MethodReport.of(Baselines.ANSWER_ONLY.name(), Baselines.ANSWER_ONLY.definition(), answerOnly),
                MethodReport.of(Baselines.RULES_ONLY.name(), Baselines.RULES_ONLY.definition(), rulesOnly),
                List.copyOf(notes), byOrigin, tieredReport, gaps.report(), byKind.report(), F1Interval.of(raglog),
                PlantingTell.of(runs));
    }

    /** The run's LLM calls, input and output tokens, as its features recorded them. */
    private static long[] usage(LabeledRun run) {
        var llm = run.input().features().llm();
        return llm == null ? new long[3] : new long[] {llm.calls(), llm.inputTokens(), llm.outputTokens()};
    }

    static RunOutcome outcome(LabeledRun run, Set<Stage> scored, Set<Stage> flagged) {
        return new RunOutcome(run.runId(), scored, flagged, run.label().stages(), run.label().answerCorrect());
    }
}

package io.raglog.training;

import io.raglog.schemas.Stage;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code evaluate} prints: raglog and the two baselines on the same labeled runs, as JSON (this record, through
 * {@code Json.MAPPER}) and as a table ({@link #toTable()}).
 *
 * @param dataset what was evaluated, e.g. "held-out test split" or a labels file
 * @param judge the judge that answered the LLM checks; the offline judge is a proxy and the table says so
 * @param stageInstances present, labeled stages over all runs: the population of the pooled F1
 * @param raglogByOrigin raglog on the sound runs plus only the runs whose fault was injected ({@code injected}), or
 *     plus only those whose fault arose on its own ({@code natural}): the paper reports the two apart, and injected
 *     faults are the easier to see; null in reports written before it existed
 * @param tiered tiered mode on the same runs, when the bundle has a tier gate; else null
 * @param knowledgeGap the knowledge-gap decision against the labels; null in reports written before it existed
 * @param recallByFaultKind recall by the kind and origin of each faulty run's root fault, keyed {@code kind/origin};
 *     null in reports written before it existed
 * @param raglogF1Interval how far raglog's pooled stage F1 moves with the sample alone (a bootstrap over runs); null
 *     in reports written before it existed
 * @param plantingTells per fault kind seen both planted and natural, how far the fault stage's features tell the two
 *     apart ({@link PlantingTell}); empty when the labels carry no origins, null in reports written before it existed
 */
public record EvaluationReport(String dataset, String modelBundle, String judge, int runs, int stageInstances,
        MethodReport raglog, MethodReport answerOnly, MethodReport rulesOnly, List<String> notes,
        Map<String, MethodReport> raglogByOrigin, TieredReport tiered, KnowledgeGapReport knowledgeGap,
        Map<String, FaultKindRecall> recallByFaultKind, F1Interval raglogF1Interval,
        Map<String, PlantingTell> plantingTells) {

    public String toTable() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Evaluation of %s: %d runs, %d present labeled stages%n", dataset, runs,
                stageInstances));
        out.append("model bundle ").append(modelBundle).append(", judge ").append(judge)
                .append(judge != null && judge.startsWith("offline") ? " (offline proxy, not an LLM)" : "")
                .append(System.lineSeparator()).append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%-12s %9s %9s %7s %16s %22s %20s%n", "method", "stage F1",
                "precision", "recall", "run FPR", "faulty, right answer", "faulty, wrong answer"));
        for (MethodReport m : List.of(raglog, answerOnly, rulesOnly)) {
            MethodReport.RunLevel r = m.runs();
            out.append(String.format(Locale.ROOT, "%-12s %9.3f %9.3f %7.3f %16s %22s %20s%n", m.method(),
                    m.pooled().f1(), m.pooled().precision(), m.pooled().recall(),
                    share(r.falsePositiveRate(), r.soundRunsFlagged(), r.soundRuns()),
                    share(r.faultyCorrectAnswerCaught(), r.faultyCorrectAnswerCaughtRuns(), r.faultyCorrectAnswerRuns()),
                    share(r.faultyWrongAnswerCaught(), r.faultyWrongAnswerCaughtRuns(), r.faultyWrongAnswerRuns())));
        }
        if (tiered != null) {
            MethodReport t = tiered.raglog();
            MethodReport.RunLevel r = t.runs();
            out.append(String.format(Locale.ROOT, "%-12s %9.3f %9.3f %7.3f %16s %22s %20s%n", "tiered",
                    t.pooled().f1(), t.pooled().precision(), t.pooled().recall(),
                    share(r.falsePositiveRate(), r.soundRunsFlagged(), r.soundRuns()),
                    share(r.faultyCorrectAnswerCaught(), r.faultyCorrectAnswerCaughtRuns(), r.faultyCorrectAnswerRuns()),
                    share(r.faultyWrongAnswerCaught(), r.faultyWrongAnswerCaughtRuns(), r.faultyWrongAnswerRuns())));
            out.append(String.format(Locale.ROOT,
                    "tiered vs default: stage F1 %.4f vs %.4f (loss %.4f), LLM calls/run %.3f vs %.3f (%.1f%% fewer),"
                            + " skipped %.1f%% (%d/%d runs), input tokens/run %.0f vs %.0f%n",
                    t.pooled().f1(), raglog.pooled().f1(), tiered.f1Loss(), tiered.callsPerRunTiered(),
                    tiered.callsPerRunDefault(), 100 * tiered.callsSavedShare(), 100 * tiered.skipShare(),
                    tiered.skippedRuns(), runs, tiered.inputTokensPerRunTiered(), tiered.inputTokensPerRunDefault()));
        }
        if (raglogF1Interval != null) {
            out.append(String.format(Locale.ROOT, "raglog stage F1, 95%% interval over these runs: %.3f-%.3f"
                            + " (bootstrap, %,d resamples of the runs): a difference smaller than its width is the"
                            + " sample's%n",
                    raglogF1Interval.low(), raglogF1Interval.high(), raglogF1Interval.replicates()));
        }
        out.append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%-9s %8s %9s %9s %9s %13s %12s%n", "stage", "faulty", "present",
                "raglog P", "raglog R", "raglog F1", "answer F1  rules F1"));
        for (Stage stage : Stage.values()) {
            StageMetrics s = raglog.stage(stage);
            out.append(String.format(Locale.ROOT, "%-9s %8d %9d %9.3f %9.3f %13.3f %9.3f %9.3f%n", stage.id(),
                    s.faulty(), s.instances(), s.precision(), s.recall(), s.f1(), answerOnly.stage(stage).f1(),
                    rulesOnly.stage(stage).f1()));
        }
        if (raglogByOrigin != null && !raglogByOrigin.isEmpty()) {
            out.append(System.lineSeparator()).append("raglog by fault origin (each with the sound runs):")
                    .append(System.lineSeparator());
            raglogByOrigin.forEach((origin, m) -> out.append(String.format(Locale.ROOT,
                    "  %-9s stage F1 %.3f  precision %.3f  recall %.3f  faulty stages %d%n", origin, m.pooled().f1(),
                    m.pooled().precision(), m.pooled().recall(), m.pooled().faulty())));
        }
        if (recallByFaultKind != null && !recallByFaultKind.isEmpty()) {
            out.append(System.lineSeparator()).append("raglog recall by root fault (the fault's stage flagged):")
                    .append(System.lineSeparator());
            recallByFaultKind.values().forEach(k -> out.append(String.format(Locale.ROOT,
                    "  %-36s %-9s %6.3f (%d/%d)%n", k.faultType(), k.origin(), k.recall(), k.caught(), k.runs())));
        }
        if (plantingTells != null && !plantingTells.isEmpty()) {
            out.append(System.lineSeparator()).append("planted and natural faults of one kind, told apart by their"
                    + " stage's features (two-sample KS: 0 alike, 1 always apart; kinds with at least "
                    + PlantingTell.MIN_RUNS + " of each):").append(System.lineSeparator());
            plantingTells.values().forEach(t -> out.append(String.format(Locale.ROOT,
                    "  %-36s %4d planted %4d natural: KS %.2f on %s (medians %.2f and %.2f)%n", t.faultType(),
                    t.injected(), t.natural(), t.ks(), t.feature(), t.injectedMedian(), t.naturalMedian())));
        }
        if (knowledgeGap != null) {
            StageMetrics g = knowledgeGap.decisions();
            out.append(System.lineSeparator()).append(String.format(Locale.ROOT,
                    "knowledge gap (the corpus lacks the answer; not a stage fault): %d labeled, precision %.3f, "
                            + "recall %.3f, F1 %.3f (%d decided)%n", g.faulty(), g.precision(), g.recall(), g.f1(),
                    g.truePositives() + g.falsePositives()));
            out.append(String.format(Locale.ROOT, "  runs whose only trouble is a gap: %d, %d with a stage flagged%n",
                    knowledgeGap.gapOnlyRuns(), knowledgeGap.gapOnlyRunsFlagged()));
        }
        out.append(System.lineSeparator()).append("how each method flags:").append(System.lineSeparator());
        for (MethodReport m : List.of(raglog, answerOnly, rulesOnly)) {
            out.append("  ").append(m.method()).append(": ").append(m.definition()).append(System.lineSeparator());
        }
        for (String note : notes) {
            out.append("note: ").append(note).append(System.lineSeparator());
        }
        return out.toString();
    }

    private static String share(double rate, int part, int whole) {
        return String.format(Locale.ROOT, "%.1f%% (%d/%d)", 100 * rate, part, whole);
    }
}

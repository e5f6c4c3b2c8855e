package io.raglog.cli;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the demo's verdicts compare with the simulator's injected and natural labels: stage-level precision, recall and
 * F1 pooled over every present stage (the RAGLog paper's measure), the run-level false-positive rate, and how many
 * faulty runs that still answered correctly were caught.
 */
final class DemoReport {

    private final Map<Stage, int[]> byStage = new EnumMap<>(Stage.class); // tp, fp, fn
    private int joined;
    private int soundRuns;
    private int soundRunsFlagged;
    private int faultyCorrect;
    private int faultyCorrectCaught;
    private final int[] gaps = new int[3]; // tp, fp, fn of the knowledge-gap decision

    DemoReport(List<Verdict> verdicts, List<Label> labels) {
        Map<String, Label> byRun = new HashMap<>();
        labels.forEach(l -> byRun.put(l.runId(), l));
        for (Stage s : Stage.values()) {
            byStage.put(s, new int[3]);
        }
        for (Verdict v : verdicts) {
            Label label = byRun.get(v.runId());
            if (label == null) {
                continue;
            }
            joined++;
            boolean gap = v.knowledgeGap().flagged();
            if (gap || label.knowledgeGap()) {
                gaps[gap && label.knowledgeGap() ? 0 : gap ? 1 : 2]++;
            }
            boolean anyFaulty = false;
            boolean caught = false;
            boolean flaggedALabeledStage = false;
            for (Stage s : Stage.values()) {
                StageVerdict sv = v.stages().get(s);
                Integer truth = label.stages().get(s);
                if (sv == null || !sv.present() || truth == null) {
                    continue;
                }
                boolean faulty = truth == 1;
                anyFaulty |= faulty;
                flaggedALabeledStage |= sv.flagged();
                int[] c = byStage.get(s);
                if (sv.flagged() && faulty) {
                    c[0]++;
                    caught = true;
                } else if (sv.flagged()) {
                    c[1]++;
                } else if (faulty) {
                    c[2]++;
                }
            }
            if (!anyFaulty) {
                soundRuns++;
                // a flag on a stage the labels leave open (retrieval for an unanswerable question) is no false alarm
                soundRunsFlagged += flaggedALabeledStage ? 1 : 0;
            } else if (label.answerCorrect()) {
                faultyCorrect++;
                faultyCorrectCaught += caught ? 1 : 0;
            }
        }
    }

    void print(PrintStream out, String judge) {
        out.printf("%nagainst the simulator's labels (%d runs joined by run id; features by %s%s):%n", joined, judge,
                judge.startsWith("offline") ? ", an offline proxy for an LLM judge" : "");
        out.printf("  %-9s %9s %9s %9s %9s%n", "stage", "precision", "recall", "F1", "faulty");
        int tp = 0;
        int fp = 0;
        int fn = 0;
        for (Map.Entry<Stage, int[]> e : byStage.entrySet()) {
            int[] c = e.getValue();
            tp += c[0];
            fp += c[1];
            fn += c[2];
            out.printf("  %-9s %9s %9s %9s %9d%n", e.getKey().id(), ratio(c[0], c[0] + c[1]), ratio(c[0], c[0] + c[2]),
                    f1(c[0], c[1], c[2]), c[0] + c[2]);
        }
        out.printf("  %-9s %9s %9s %9s %9d%n", "pooled", ratio(tp, tp + fp), ratio(tp, tp + fn), f1(tp, fp, fn), tp + fn);
        out.printf("  %-9s %9s %9s %9s %9d  (the corpus lacks the answer: not a stage fault)%n", "know. gap",
                ratio(gaps[0], gaps[0] + gaps[1]), ratio(gaps[0], gaps[0] + gaps[2]), f1(gaps[0], gaps[1], gaps[2]),
                gaps[0] + gaps[2]);
        out.printf("  run-level false-positive rate: %s (%d of %d runs with no faulty stage were flagged)%n",
                ratio(soundRunsFlagged, soundRuns), soundRunsFlagged, soundRuns);
        out.printf("  faulty runs that still answered correctly, caught: %s (%d of %d)%n",
                ratio(faultyCorrectCaught, faultyCorrect), faultyCorrectCaught, faultyCorrect);
    }

    private static String ratio(int a, int b) {
        return b == 0 ? "-" : String.format("%.3f", a / (double) b);
    }

    private static String f1(int tp, int fp, int fn) {
        return tp == 0 ? (fp + fn == 0 ? "-" : "0.000") : String.format("%.3f", 2.0 * tp / (2.0 * tp + fp + fn));
    }
}

package io.raglog.training;

import io.raglog.schemas.Stage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One method's figures on one labeled set.
 *
 * @param definition exactly what the method flags, in a sentence
 * @param pooled stage-level counts pooled over every present, labeled stage of every run (the paper's measure)
 * @param stages the same per stage, keyed by stage id in pipeline order
 */
public record MethodReport(String method, String definition, StageMetrics pooled, Map<String, StageMetrics> stages,
        RunLevel runs) {

    /**
     * @param soundRuns runs with no faulty stage
     * @param falsePositiveRate share of sound runs with at least one flagged stage
     * @param faultyCorrectAnswerCaught share of runs that had a faulty stage yet answered correctly where at least
     *     one faulty stage was flagged: what answer-only checking cannot see
     * @param faultyWrongAnswerCaught the same among faulty runs that answered wrongly
     */
    public record RunLevel(int soundRuns, int soundRunsFlagged, double falsePositiveRate,
            int faultyCorrectAnswerRuns, int faultyCorrectAnswerCaughtRuns, double faultyCorrectAnswerCaught,
            int faultyWrongAnswerRuns, int faultyWrongAnswerCaughtRuns, double faultyWrongAnswerCaught) {}

    public static MethodReport of(String method, String definition, List<RunOutcome> outcomes) {
        int[][] counts = new int[Stage.values().length][4];
        int sound = 0;
        int soundFlagged = 0;
        int faultyCorrect = 0;
        int faultyCorrectCaught = 0;
        int faultyWrong = 0;
        int faultyWrongCaught = 0;
        for (RunOutcome run : outcomes) {
            for (Stage stage : run.scored()) {
                boolean truth = run.truth().faulty(stage);
                boolean flagged = run.flagged().contains(stage);
                counts[stage.ordinal()][truth ? (flagged ? 0 : 2) : (flagged ? 1 : 3)]++;
            }
            if (!run.faulty()) {
                sound++;
                soundFlagged += run.anyFlagged() ? 1 : 0;
            } else if (run.answerCorrect()) {
                faultyCorrect++;
                faultyCorrectCaught += run.caught() ? 1 : 0;
            } else {
                faultyWrong++;
                faultyWrongCaught += run.caught() ? 1 : 0;
            }
        }
        Map<String, StageMetrics> stages = new LinkedHashMap<>();
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int tn = 0;
        for (Stage stage : Stage.values()) {
            int[] c = counts[stage.ordinal()];
            stages.put(stage.id(), StageMetrics.of(c[0], c[1], c[2], c[3]));
            tp += c[0];
            fp += c[1];
            fn += c[2];
            tn += c[3];
        }
        RunLevel runs = new RunLevel(sound, soundFlagged, share(soundFlagged, sound), faultyCorrect,
                faultyCorrectCaught, share(faultyCorrectCaught, faultyCorrect), faultyWrong, faultyWrongCaught,
                share(faultyWrongCaught, faultyWrong));
        return new MethodReport(method, definition, StageMetrics.of(tp, fp, fn, tn), stages, runs);
    }

    public StageMetrics stage(Stage stage) {
        return stages.get(stage.id());
    }

    private static double share(int part, int whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}

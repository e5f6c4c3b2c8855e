package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Label;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.ScoringInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlantingTellTest {

    @Test
    void shouldMeasureHowFarTwoSamplesFallApart() {
        assertThat(PlantingTell.ks(new double[] {1, 2, 3}, new double[] {1, 2, 3})).isZero();
        assertThat(PlantingTell.ks(new double[] {1, 2, 3}, new double[] {4, 5, 6})).isEqualTo(1.0);
        // half of one sample below the other's every value
        assertThat(PlantingTell.ks(new double[] {0, 0, 5, 5}, new double[] {4, 4, 6, 6})).isCloseTo(0.5, within(1e-9));
    }

    /**
     * Rewrite faults planted with the answer's names always lost, and arising on their own with them lost as often as
     * not: the planting shows on exactly that feature. Generator faults planted and natural alike show little.
     */
    @Test
    void shouldNameTheFeatureThatTellsAPlantedFaultFromANaturalOne() {
        List<LabeledRun> runs = new ArrayList<>();
        for (LabeledRun run : SyntheticRuns.generate(600, 11)) {
            String stage = run.label().faultStage();
            if ("rewrite".equals(stage) || "generate".equals(stage)) {
                boolean planted = runs.size() % 2 == 0;
                Map<String, Double> features = new HashMap<>(run.input().features().features());
                if ("rewrite".equals(stage)) {
                    features.put(FeatureList.REWRITE_LOST_NAMES, planted ? 2.0 : runs.size() % 4 == 1 ? 1.0 : 0.0);
                }
                runs.add(relabeled(run, planted ? Label.ORIGIN_INJECTED : Label.ORIGIN_NATURAL, features));
            }
        }

        Map<String, PlantingTell> tells = PlantingTell.of(runs);

        PlantingTell rewrite = tells.get("rewrite.synthetic");
        assertThat(rewrite.feature()).isEqualTo(FeatureList.REWRITE_LOST_NAMES);
        assertThat(rewrite.ks()).isEqualTo(1.0);
        assertThat(rewrite.injectedMedian()).isEqualTo(2.0);
        assertThat(tells.get("generate.synthetic").ks()).isLessThan(0.5);
        assertThat(PlantingTell.of(SyntheticRuns.generate(200, 3))).as("no natural faults: nothing to compare")
                .isEmpty();
    }

    private static LabeledRun relabeled(LabeledRun run, String origin, Map<String, Double> features) {
        Label l = run.label();
        Label label = new Label(l.schema(), l.runId(), l.pipeline(), l.profile(), l.questionId(), l.question(),
                l.runHint(), l.generatorEventId(), l.stages(), l.faultStage(), l.faultType(), origin, l.faultDetail(),
                l.answerCorrect(), l.isAnswerable(), l.expectedAnswer(), l.answer(), l.evidenceChunkIds(),
                l.startedAt());
        RunFeatures f = run.input().features();
        RunFeatures changed = new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(),
                f.featureListVersion(), features, f.llm(), f.evidenceFlow(), f.findings());
        return new LabeledRun(new ScoringInput(changed, run.input().present(), run.input().answer()), label);
    }
}

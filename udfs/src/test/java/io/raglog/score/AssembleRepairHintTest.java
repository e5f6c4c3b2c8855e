package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Context assembly's repair hint names the knob the run points at: the budget, or the order passages go in. */
class AssembleRepairHintTest {

    private static final Set<Stage> ALL_STAGES = EnumSet.allOf(Stage.class);
    private static final Set<Stage> NO_OTHER_FLAG = EnumSet.noneOf(Stage.class);

    private static RunFeatures features(Map<String, Double> values) {
        return FixedBundles.namedFeatures(values);
    }

    @Test
    void anAnswerBuriedInTheMiddleOfALongPromptAsksForAnotherOrder() {
        String hint = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 6.0,
                FeatureList.ASSEMBLE_CUT, 0.0, FeatureList.ASSEMBLE_DROPPED, 0.0,
                FeatureList.ASSEMBLE_ANSWER_DEPTH, 0.8)), false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).contains("ends of the prompt").contains("middle of the 6 in the prompt");
    }

    @Test
    void anAnswerTheBudgetCutAsksForMoreBudgetWhereverTheRestSat() {
        String hint = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 6.0,
                FeatureList.ASSEMBLE_CUT, 1.0, FeatureList.ASSEMBLE_DROPPED, 0.0,
                FeatureList.ASSEMBLE_ANSWER_DEPTH, 0.8, FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.7,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3)), false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).startsWith("Raise the context budget");
    }

    @Test
    void anAnswerACompressorLeftOutOfItsExtractsAsksAboutTheCompressorNotTheBudget() {
        String compressed = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 3.0,
                FeatureList.ASSEMBLE_CUT, 2.0, FeatureList.ASSEMBLE_EXTRACTED, 2.0, FeatureList.ASSEMBLE_DROPPED, 1.0,
                FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.7, FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3)), false,
                ALL_STAGES, NO_OTHER_FLAG);
        // a budget that cut one passage short beside the compressor's extracts is the budget's to raise
        String both = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 3.0,
                FeatureList.ASSEMBLE_CUT, 2.0, FeatureList.ASSEMBLE_EXTRACTED, 1.0, FeatureList.ASSEMBLE_DROPPED, 0.0)),
                false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(compressed).startsWith("Check the context compressor").contains("only extracts of 2 of the 3")
                .contains("and dropped 1");
        assertThat(both).startsWith("Raise the context budget");
    }

    @Test
    void aBudgetThatLeftMostOfTheWindowUnusedSaysSoWithoutReadingAsNothingSent() {
        String tiny = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 3.0,
                FeatureList.ASSEMBLE_CUT, 1.0, FeatureList.ASSEMBLE_DROPPED, 2.0,
                FeatureList.ASSEMBLE_WINDOW_SHARE, 143 / 128_000.0)), false, ALL_STAGES, NO_OTHER_FLAG);
        String half = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 3.0,
                FeatureList.ASSEMBLE_CUT, 1.0, FeatureList.ASSEMBLE_DROPPED, 2.0,
                FeatureList.ASSEMBLE_WINDOW_SHARE, 0.46)), false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(tiny).contains("(the prompt filled under 1% of the model's context window)");
        assertThat(half).contains("(the prompt filled 46% of the model's context window)");
    }

    @Test
    void aShortPromptHasNoMiddleToBlame() {
        String hint = RepairHints.forStage(Stage.ASSEMBLE, features(Map.of(FeatureList.ASSEMBLE_HANDED_ON, 3.0,
                FeatureList.ASSEMBLE_CUT, 0.0, FeatureList.ASSEMBLE_DROPPED, 0.0,
                FeatureList.ASSEMBLE_ANSWER_DEPTH, 1.0)), false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).doesNotContain("ends of the prompt");
    }
}

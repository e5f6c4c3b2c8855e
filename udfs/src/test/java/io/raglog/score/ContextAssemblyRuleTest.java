package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A reranker's or an abstaining generator's flag moves to context assembly when assembly lost the answer. */
class ContextAssemblyRuleTest {

    private static final Set<Stage> WITH_ASSEMBLY = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.RERANK,
            Stage.ASSEMBLE, Stage.GENERATE);

    /** Assembly's model below its threshold, above the rule's floor. */
    private static final double ABOVE_FLOOR = 0.4;

    private static RunFeatures features(Map<String, Double> values) {
        return FixedBundles.namedFeatures(values);
    }

    @Test
    void aLostSentenceThatAnswersMovesTheRerankersFlag() {
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.5,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3));

        ContextAssemblyRule.Outcome out = ContextAssemblyRule.apply(EnumSet.of(Stage.RERANK), WITH_ASSEMBLY, f,
                ABOVE_FLOOR);

        assertThat(out.flagged()).containsExactly(Stage.ASSEMBLE);
        assertThat(out.cleared()).containsExactly(Stage.RERANK);
    }

    @Test
    void flagsAssemblyOnTheRulesWhenItsModelLeansThatWayBelowItsThreshold() {
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.6,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.2));

        assertThat(ContextAssemblyRule.apply(EnumSet.noneOf(Stage.class), WITH_ASSEMBLY, f, ABOVE_FLOOR).flagged())
                .containsExactly(Stage.ASSEMBLE);
    }

    @Test
    void leavesARunWhoseAssemblyModelSeesNoFaultAlone() {
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.8,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.5));

        ContextAssemblyRule.Outcome out = ContextAssemblyRule.apply(EnumSet.of(Stage.RERANK), WITH_ASSEMBLY, f,
                ContextAssemblyRule.MODEL_FLOOR - 0.01);

        assertThat(out.flagged()).as("a healthy budget's loss the model has seen before").containsExactly(Stage.RERANK);
        assertThat(out.cleared()).isEmpty();
    }

    @Test
    void theRulesAloneMoveItWhenTheLostTextAnswersClearlyBetter() {
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.8,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.4, FeatureList.GENERATE_REFUSES, 1.0));

        ContextAssemblyRule.Outcome out = ContextAssemblyRule.apply(EnumSet.of(Stage.GENERATE), WITH_ASSEMBLY, f,
                ABOVE_FLOOR);

        assertThat(out.flagged()).as("it rightly said it did not know").containsExactly(Stage.ASSEMBLE);
        assertThat(out.cleared()).containsExactly(Stage.GENERATE);
    }

    @Test
    void aGeneratorThatAnsweredAnywayKeepsItsFlagBesideAssembly() {
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.7,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.7, FeatureList.GENERATE_REFUSES, 0.0));

        ContextAssemblyRule.Outcome out = ContextAssemblyRule.apply(EnumSet.of(Stage.GENERATE), WITH_ASSEMBLY, f,
                ABOVE_FLOOR);

        assertThat(out.flagged()).containsExactly(Stage.ASSEMBLE, Stage.GENERATE);
        assertThat(out.cleared()).isEmpty();
    }

    @Test
    void doesNothingForALossThatDidNotMatterOrARunWithoutAssembly() {
        RunFeatures weak = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.3,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3, FeatureList.ASSEMBLE_FLOW_LOST, 1.0));
        assertThat(ContextAssemblyRule.apply(EnumSet.of(Stage.RERANK), WITH_ASSEMBLY, weak, ABOVE_FLOOR).flagged())
                .as("the lost text answers no better than a weak passage; the judge's flow alone is no trigger")
                .containsExactly(Stage.RERANK);
        RunFeatures promptAnswersToo = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.8,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.0));
        assertThat(ContextAssemblyRule.apply(EnumSet.noneOf(Stage.class), WITH_ASSEMBLY, promptAnswersToo, ABOVE_FLOOR)
                .flagged()).as("the prompt kept as good a sentence").isEmpty();

        RunFeatures lost = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.8,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.5));

        Set<Stage> noAssembly = EnumSet.complementOf(EnumSet.of(Stage.ASSEMBLE));
        assertThat(ContextAssemblyRule.apply(EnumSet.of(Stage.RERANK), noAssembly, lost, ABOVE_FLOOR).flagged())
                .containsExactly(Stage.RERANK);
    }
}

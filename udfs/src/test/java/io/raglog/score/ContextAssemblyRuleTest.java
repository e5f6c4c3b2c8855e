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

    @Test
    void decidesABitMaskAsItDecidesASetOfStages() {
        // the tier gate's search runs the rule on masks; every combination must come out as the job's rule does
        double[] probabilities = {0.1, ContextAssemblyRule.MODEL_FLOOR, 0.9};
        for (int flaggedMask = 0; flaggedMask < 1 << Stage.values().length; flaggedMask++) {
            for (Set<Stage> present : java.util.List.of(WITH_ASSEMBLY, EnumSet.of(Stage.RERANK, Stage.GENERATE))) {
                for (boolean lost : new boolean[] {true, false}) {
                    for (boolean refused : new boolean[] {true, false}) {
                        for (double p : probabilities) {
                            java.util.Map<String, Double> values = new java.util.HashMap<>();
                            values.put(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, lost ? 0.6 : 0.2);
                            values.put(FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3);
                            values.put(FeatureList.GENERATE_REFUSES, refused ? 1.0 : 0.0);
                            RunFeatures f = features(values);
                            Set<Stage> flagged = EnumSet.noneOf(Stage.class);
                            for (Stage stage : Stage.values()) {
                                if ((flaggedMask & 1 << stage.ordinal()) != 0) {
                                    flagged.add(stage);
                                }
                            }
                            int expected = 0;
                            for (Stage stage : ContextAssemblyRule.apply(flagged, present, f, p).flagged()) {
                                expected |= 1 << stage.ordinal();
                            }
                            assertThat(ContextAssemblyRule.applyToMask(flaggedMask, mask(present),
                                    ContextAssemblyRule.lostByAssembly(f), ContextAssemblyRule.refused(f), p))
                                    .as("flagged %s, present %s, lost %s, refused %s, p %s", flagged, present, lost,
                                            refused, p)
                                    .isEqualTo(expected);
                        }
                    }
                }
            }
        }
    }

    @Test
    void firesOnARunTheTierGateSkippedWhileTheJudgesRulesCannot() {
        // a skipped run has rule checks but no evidence flow: the gate's probabilities against its "clearly faulty"
        // bounds, then the assembly rule on the gate's assembly probability
        RunFeatures f = features(Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.6,
                FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.3, FeatureList.GENERATE_REFUSES, 1.0));
        Map<Stage, Double> gate = Map.of(Stage.RERANK, 0.9, Stage.ASSEMBLE, ABOVE_FLOOR, Stage.GENERATE, 0.1);
        Map<Stage, Double> faultyFrom = Map.of(Stage.RERANK, 0.75, Stage.ASSEMBLE, 0.75, Stage.GENERATE, 0.75);

        Scorer.Decision skipped = Scorer.decideSkipped(gate, faultyFrom, gate.keySet(), f);
        assertThat(skipped.flagged()).containsExactly(Stage.ASSEMBLE);
        assertThat(skipped.clearedForAssembly()).containsExactly(Stage.RERANK);
        assertThat(skipped.gap().flagged()).isFalse();
        assertThat(Scorer.decideSkipped(gate, faultyFrom, gate.keySet(), null).flagged())
                .as("no rule checks: the bounds alone").containsExactly(Stage.RERANK);
    }

    private static int mask(Set<Stage> stages) {
        int out = 0;
        for (Stage stage : stages) {
            out |= 1 << stage.ordinal();
        }
        return out;
    }
}

package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generator's repair hint puts an answer that says what its context does not before one that says too little. */
class GenerateRepairHintTest {

    private static String hint(Map<String, Double> values) {
        return RepairHints.forStage(Stage.GENERATE, FixedBundles.namedFeatures(values), false,
                EnumSet.allOf(Stage.class), EnumSet.of(Stage.GENERATE));
    }

    @Test
    void anAnswerThatInventedIsToldToKeepToTheEvidenceEvenWhenItAlsoLeftSomethingOut() {
        assertThat(hint(Map.of(FeatureList.FLOW_OMITTED_SHARE, 0.5, FeatureList.LLM_SUPPORT_UNSUPPORTED, 0.5)))
                .startsWith("Constrain the prompt to the evidence")
                .endsWith("It also left out information its context held.");
        assertThat(hint(Map.of(FeatureList.FLOW_OMITTED_SHARE, 0.5, FeatureList.GENERATE_UNSUPPORTED_NUMBERS, 1.0)))
                .as("a number no passage gives is said without the judge")
                .startsWith("Constrain the prompt to the evidence");
    }

    @Test
    void anAnswerThatOnlyLeftSomethingOutIsToldToAnswerEveryPart() {
        assertThat(hint(Map.of(FeatureList.FLOW_OMITTED_SHARE, 0.5, FeatureList.LLM_SUPPORT_UNSUPPORTED, 0.0,
                FeatureList.GENERATE_UNSUPPORTED_NUMBERS, 0.0, FeatureList.GENERATE_UNSUPPORTED_NAMES, 0.0)))
                .startsWith("Ask the generator to answer every part of the question");
        assertThat(hint(Map.of(FeatureList.LLM_SUPPORT_UNSUPPORTED, 0.5)))
                .isEqualTo("Constrain the prompt to the evidence: answer only from the context, cite the passage for"
                        + " each claim, and abstain when the context does not say.");
    }
}

package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An answer that copied its context's sentence and wrote another name or number into it is told to keep the passage's
 * facts as written; without the swap, a generator's fault gets the hint it got before.
 */
class SwappedFactRepairHintTest {

    private static final Set<Stage> ALL_STAGES = EnumSet.allOf(Stage.class);
    private static final Set<Stage> NO_OTHER_FLAG = EnumSet.noneOf(Stage.class);

    private static RunFeatures features(double swaps) {
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "support-bot", "When was Warsaw's stock exchange set up?",
                FeatureList.VERSION, Map.of(FeatureList.GENERATE_SWAPPED_IN_PLACE, swaps,
                        FeatureList.GENERATE_REFUSES, 0.0),
                new LlmUsage(5, 0, 0, 0.0, false, List.of(), "offline-judge/v7"),
                new EvidenceFlow(List.of(new EvidencePiece("the year it was established", EvidenceLocation.IN_CONTEXT,
                        AnswerUse.CONTRADICTED, List.of("Warsaw-30#0")))),
                List.of());
    }

    @Test
    void aSwappedFactNamesTheCopy() {
        assertThat(RepairHints.forStage(Stage.GENERATE, features(1), false, ALL_STAGES, NO_OTHER_FLAG))
                .startsWith("The answer copied a sentence of its context and wrote another name or number into it")
                .contains("as the passage gives them");
    }

    @Test
    void withoutOneTheGeneratorGetsTheGroundingHint() {
        assertThat(RepairHints.forStage(Stage.GENERATE, features(0), false, ALL_STAGES, NO_OTHER_FLAG))
                .startsWith("Constrain the prompt to the evidence");
    }
}

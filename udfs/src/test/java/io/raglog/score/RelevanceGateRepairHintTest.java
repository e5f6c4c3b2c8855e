package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.checks.RuleChecks;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Finding;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A run the pipeline's own relevance gate stopped declined to answer, and its generate stage is the gate: the hint
 * names the gate, not the generator's abstention instruction, and where the context held the answer says to loosen it.
 */
class RelevanceGateRepairHintTest {

    private static final Set<Stage> ALL_STAGES = EnumSet.allOf(Stage.class);
    private static final Set<Stage> NO_OTHER_FLAG = EnumSet.noneOf(Stage.class);

    private static final Finding GATE = new Finding(Stage.GENERATE, RuleChecks.RELEVANCE_GATE_CHECK,
            "the pipeline's own relevance gate judged the context insufficient and stopped the run before generating "
                    + "(it replied \"INSUFFICIENT\")");

    private static RunFeatures features(List<Finding> findings, EvidenceLocation answerWas) {
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "support-bot", "What was the cash flow in 2023?",
                FeatureList.VERSION, Map.of(FeatureList.GENERATE_REFUSES, 1.0),
                new LlmUsage(5, 0, 0, 0.0, false, List.of(), "offline-judge/v1"),
                new EvidenceFlow(List.of(new EvidencePiece("operating cash flow in 2023", answerWas, AnswerUse.OMITTED,
                        List.of("doc-7#2")))),
                findings);
    }

    @Test
    void aGateThatStoppedARunWhoseContextHeldTheAnswerIsToldToLoosen() {
        String hint = RepairHints.forStage(Stage.GENERATE, features(List.of(GATE), EvidenceLocation.IN_CONTEXT), false,
                ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).startsWith("The pipeline's relevance gate stopped this run although its context held")
                .contains("loosen the gate");
    }

    @Test
    void aGateThatStoppedARunWhoseContextLackedTheAnswerPointsUpstream() {
        String hint = RepairHints.forStage(Stage.GENERATE, features(List.of(GATE), EvidenceLocation.NOWHERE),
                false, ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).startsWith("The pipeline's relevance gate stopped this run: see the retrieval's");
    }

    @Test
    void aGeneratorThatAbstainedIsStillToldAboutItsOwnInstruction() {
        String hint = RepairHints.forStage(Stage.GENERATE, features(List.of(), EvidenceLocation.IN_CONTEXT), false,
                ALL_STAGES, NO_OTHER_FLAG);

        assertThat(hint).startsWith("The answer abstained although its context held the needed information");
    }
}

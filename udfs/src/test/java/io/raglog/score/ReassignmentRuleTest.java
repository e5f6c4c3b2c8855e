package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReassignmentRuleTest {

    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);

    private static EvidencePiece piece(String what, EvidenceLocation location, String... passages) {
        return new EvidencePiece(what, location, AnswerUse.OMITTED, List.of(passages));
    }

    private static final EvidenceFlow ONLY_DROPPED = new EvidenceFlow(List.of(
            piece("operating cash flow in 2023", EvidenceLocation.ONLY_DROPPED, "doc-7#2"),
            new EvidencePiece("company name", EvidenceLocation.IN_CONTEXT, AnswerUse.INCLUDED, List.of("doc-7#1"))));

    @Test
    void shouldMoveTheRetrievalFlagToTheRerankerWhenTheNeededPieceWasOnlyInDroppedPassages() {
        ReassignmentRule.Outcome outcome = ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE, Stage.GENERATE), ALL,
                ONLY_DROPPED, null);
        assertThat(outcome.fired()).isTrue();
        assertThat(outcome.flagged()).containsExactlyInAnyOrder(Stage.RERANK, Stage.GENERATE);
    }

    @Test
    void shouldNotBlameTheRerankerForWhatContextAssemblyCutAfterItHandedItOn() {
        // one piece of the two is only in dropped passages, and it is the one assembly lost (a share of 1/2)
        ReassignmentRule.Outcome lostByAssembly = ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), ALL,
                ONLY_DROPPED, 0.5);
        assertThat(lostByAssembly.fired()).isFalse();
        assertThat(lostByAssembly.flagged()).containsExactly(Stage.RETRIEVE);

        ReassignmentRule.Outcome assemblyLostNone = ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), ALL,
                ONLY_DROPPED, 0.0);
        assertThat(assemblyLostNone.fired()).isTrue();
        assertThat(assemblyLostNone.flagged()).containsExactly(Stage.RERANK);
    }

    @Test
    void shouldKeepTheRetrievalFlagWhenAPieceWasFoundNowhere() {
        EvidenceFlow mixed = new EvidenceFlow(List.of(
                piece("operating cash flow in 2023", EvidenceLocation.ONLY_DROPPED, "doc-7#2"),
                piece("2022 figure", EvidenceLocation.NOWHERE)));
        ReassignmentRule.Outcome outcome = ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, mixed, null);
        assertThat(outcome.fired()).isFalse();
        assertThat(outcome.flagged()).containsExactly(Stage.RETRIEVE);
    }

    @Test
    void shouldNotFireWithoutARerankerWithoutAnEvidenceFlowOrWithoutARetrievalFlag() {
        Set<Stage> noReranker = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        assertThat(ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), noReranker, ONLY_DROPPED, null).fired()).isFalse();
        assertThat(ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, null, null).fired()).isFalse();
        ReassignmentRule.Outcome generateOnly = ReassignmentRule.apply(EnumSet.of(Stage.GENERATE), ALL, ONLY_DROPPED, null);
        assertThat(generateOnly.fired()).isFalse();
        assertThat(generateOnly.flagged()).containsExactly(Stage.GENERATE);
        EvidenceFlow allInContext = new EvidenceFlow(List.of(piece("x", EvidenceLocation.IN_CONTEXT, "doc-1#0")));
        assertThat(ReassignmentRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, allInContext, null).fired()).isFalse();
    }

    @Test
    void shouldRecordInTheVerdictThatTheRuleFiredAndExplainBothStages() {
        // retrieval scores above its threshold, the reranker below its own: only the rule can flag the reranker
        double p = FixedBundles.P_AT_ONE;
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.99, 0.99, 0.5, 0.99, 0.99))) {
            ScoringInput input = new ScoringInput(FixedBundles.features("run-r", 1.0, ONLY_DROPPED), ALL, "n/a");
            Verdict verdict = new Scorer(bundle).score(input, Instant.EPOCH);

            assertThat(verdict.reassigned()).isTrue();
            assertThat(verdict.flaggedStages()).containsExactly(Stage.RERANK);
            StageVerdict retrieve = verdict.stages().retrieve();
            assertThat(retrieve.probability()).isCloseTo(p, org.assertj.core.api.Assertions.within(1e-12));
            assertThat(retrieve.flagged()).isFalse();
            assertThat(retrieve.evidence()).singleElement().asString()
                    .contains("'operating cash flow in 2023'", "moved to the reranker");
            assertThat(retrieve.repairHint()).isNull();
            StageVerdict rerank = verdict.stages().rerank();
            assertThat(rerank.flagged()).isTrue();
            assertThat(rerank.probability()).isLessThan(rerank.threshold());
            assertThat(rerank.evidence()).contains(
                    "the passage holding 'operating cash flow in 2023' (doc-7#2) was dropped: the reranker kept 5 of 20"
                            + " (LLM judge)");
            assertThat(rerank.repairHint()).startsWith("Raise the reranker's top-n above 5 (of 20)");
        }
    }
}

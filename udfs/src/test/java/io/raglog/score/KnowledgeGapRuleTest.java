package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.checks.RuleChecks;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The knowledge-gap rule on hand-built runs: what it decides and what it says. */
class KnowledgeGapRuleTest {

    private static final EvidenceFlow NOWHERE = new EvidenceFlow(List.of(new EvidencePiece(
            "what the Normans exported to Iceland", EvidenceLocation.NOWHERE, AnswerUse.OMITTED, List.of())));

    private static RunFeatures run(Double noAnswer, Double missing, double refuses, Double unsupported,
            Double offTopic) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(FeatureList.LLM_RETRIEVE_NO_ANSWER, noAnswer);
        f.put(FeatureList.FLOW_MISSING_SHARE, missing);
        f.put(FeatureList.GENERATE_REFUSES, refuses);
        f.put(FeatureList.LLM_SUPPORT_UNSUPPORTED, unsupported);
        f.put(FeatureList.LLM_RETRIEVE_OFF_TOPIC, offTopic);
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "docs-qa", "What did the Normans export to Iceland?",
                FeatureList.VERSION, f, new LlmUsage(5, 0, 0, 0.0, false, List.of(), FixedBundles.JUDGE),
                NOWHERE, List.of());
    }

    @Test
    void shouldDecideAGapWhenNothingAnswersAndTheAnswerRefusedAndSayRetrievalIsFlaggedToo() {
        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.of(Stage.RETRIEVE, Stage.GENERATE),
                run(90.0, 1.0, 1, 0.0, 5.0));
        assertThat(gap.flagged()).isTrue();
        assertThat(gap.clearedRetrieve()).as("a gap clears no stage flag").isFalse();
        assertThat(gap.score()).isBetween(0.9, 1.0);
        assertThat(gap.evidence()).anySatisfy(e -> assertThat(e).contains("what the Normans exported to Iceland"))
                .anySatisfy(e -> assertThat(e).contains("no retrieved or reranked passage"))
                .anySatisfy(e -> assertThat(e).contains("refused"))
                .anySatisfy(e -> assertThat(e).contains("retrieval is flagged too"));
        assertThat(gap.repairHint()).startsWith("Add content about 'what the Normans exported to Iceland'");
        assertThat(KnowledgeGapRule.decide(EnumSet.of(Stage.GENERATE), run(90.0, 1.0, 1, 0.0, 5.0)).evidence())
                .as("nothing to say of a retrieval not flagged").noneSatisfy(e -> assertThat(e).contains("retrieval"));
    }

    @Test
    void shouldSayTheAnswerMayExistWhenTheKnowledgeBaseHoldsABetterPassage() {
        RunFeatures missed = run(90.0, 1.0, 1, 0.0, 5.0);
        Map<String, Double> f = new LinkedHashMap<>(missed.features());
        f.put(FeatureList.RETRIEVE_UNRETURNED_MATCH_GAIN, 0.4);
        RunFeatures withBetterPassage = new RunFeatures(missed.schema(), missed.runId(), missed.pipeline(),
                missed.question(), missed.featureListVersion(), f, missed.llm(), missed.evidenceFlow(),
                missed.findings());

        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.of(Stage.RETRIEVE, Stage.GENERATE), withBetterPassage);

        assertThat(gap.flagged()).isTrue();
        assertThat(gap.evidence()).anySatisfy(e -> assertThat(e).contains("the answer may exist, and retrieval missed"));
    }

    @Test
    void shouldQuoteTheSentenceThatOnlySeemsToAnswer() {
        RunFeatures refused = run(90.0, 1.0, 1, 0.0, 5.0);
        String seeming = "the retrieved sentence most like the answer, \"The Normans exported wool to England.\""
                + " (passage p1), does not answer the question as asked: it lacks the question's 'not'";
        RunFeatures withFinding = new RunFeatures(refused.schema(), refused.runId(), refused.pipeline(),
                refused.question(), refused.featureListVersion(), refused.features(), refused.llm(),
                refused.evidenceFlow(), List.of(Finding.of("retrieve.key_terms",
                        Fact.of(Stage.RETRIEVE, FactKind.SEEMING_ANSWER, ""), seeming)));
        assertThat(KnowledgeGapRule.decide(EnumSet.noneOf(Stage.class), withFinding).evidence()).contains(seeming);
    }

    @Test
    void shouldSayTheRunsRelevanceGateStoppedItRatherThanThatAnAnswerRefused() {
        RunFeatures refused = run(90.0, 1.0, 1, 0.0, 5.0);
        RunFeatures gated = new RunFeatures(refused.schema(), refused.runId(), refused.pipeline(),
                refused.question(), refused.featureListVersion(), refused.features(), refused.llm(),
                refused.evidenceFlow(), List.of(Finding.of(RuleChecks.RELEVANCE_GATE_CHECK,
                        Fact.of(Stage.GENERATE, FactKind.REFUSAL, ""),
                        "the pipeline's own relevance gate judged ...")));
        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.noneOf(Stage.class), gated);

        assertThat(gap.flagged()).isTrue();
        assertThat(gap.evidence()).contains("the pipeline's relevance gate stopped the run: no answer was given")
                .doesNotContain("the answer refused");
    }

    @Test
    void shouldNameThePassageAFlaggedRerankerOrAssemblyLostThatTheChecksReadAsAnswering() {
        RunFeatures refused = run(90.0, 1.0, 1, 0.0, 5.0);
        RunFeatures lost = new RunFeatures(refused.schema(), refused.runId(), refused.pipeline(), refused.question(),
                refused.featureListVersion(), refused.features(), refused.llm(), refused.evidenceFlow(), List.of(
                        Finding.of("rules", Fact.of(Stage.ASSEMBLE, FactKind.MISSING_ANSWER, Fact.ANSWER)
                                .withPassages(List.of("Normans-4#0")), "passage 1 of 3 ... holds the answer"),
                        Finding.of("rules", Fact.of(Stage.RERANK, FactKind.MISSING_ANSWER, Fact.ANSWER)
                                .withPassages(List.of("Normans-7#1", "Normans-9#0")), "the passage ..."),
                        // the judge's own reading names no passage: nothing to point the reviewer at
                        Finding.of("llm", Fact.of(Stage.RERANK, FactKind.MISSING_ANSWER, Fact.ANSWER), "...")));

        KnowledgeGap both = KnowledgeGapRule.decide(EnumSet.of(Stage.RERANK, Stage.ASSEMBLE), lost);

        assertThat(both.flagged()).isTrue();
        assertThat(both.evidence()).contains("the reranker is flagged too, and cut passages Normans-7#1, Normans-9#0,"
                        + " which the checks read as answering: if so, the knowledge base holds this and the"
                        + " reranker lost it",
                "context assembly is flagged too, and lost passage Normans-4#0 before the prompt, which the checks"
                        + " read as answering: if so, the pipeline had the answer and assembly lost it");
        assertThat(KnowledgeGapRule.decide(EnumSet.of(Stage.GENERATE), lost).evidence())
                .as("a stage not flagged is not the gap's other reading")
                .noneSatisfy(e -> assertThat(e).contains("reranker"))
                .noneSatisfy(e -> assertThat(e).contains("assembly"));
        assertThat(KnowledgeGapRule.decide(EnumSet.of(Stage.RERANK, Stage.ASSEMBLE), refused).evidence())
                .as("flagged for something else: no passage to name")
                .noneSatisfy(e -> assertThat(e).contains("reranker"))
                .noneSatisfy(e -> assertThat(e).contains("assembly"));
    }

    @Test
    void shouldListWhatIsMissingAsAReaderWouldWithoutQuotingAQuoteAgain() {
        RunFeatures base = run(90.0, 1.0, 1, 0.0, 5.0);
        EvidenceFlow twoPieces = new EvidenceFlow(List.of(
                new EvidencePiece("the name 'Kublai'", EvidenceLocation.NOWHERE, AnswerUse.OMITTED, List.of()),
                new EvidencePiece("the answer to 'expediate famines'", EvidenceLocation.NOWHERE, AnswerUse.OMITTED,
                        List.of()),
                new EvidencePiece("the year", EvidenceLocation.IN_CONTEXT, AnswerUse.INCLUDED, List.of("p1"))));
        RunFeatures withPieces = new RunFeatures(base.schema(), base.runId(), base.pipeline(), base.question(),
                base.featureListVersion(), base.features(), base.llm(), twoPieces, base.findings());

        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.noneOf(Stage.class), withPieces);

        assertThat(gap.evidence()).contains(
                "the question asks for the name 'Kublai' and the answer to 'expediate famines'");
        assertThat(gap.repairHint()).startsWith(
                "Add content about the name 'Kublai' and the answer to 'expediate famines' to the knowledge base");
        assertThat(StatedFacts.listed(List.of("a", "b", "c"))).isEqualTo("a, b and c");
    }

    @Test
    void shouldSayWhenTheEvidenceFlowFindsEveryNeededPieceThatTheJudgeSaysNoPassageHolds() {
        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.noneOf(Stage.class), run(50.0, 0.0, 1, 0.0, 5.0));

        assertThat(gap.flagged()).isTrue();
        assertThat(gap.evidence()).contains("no retrieved or reranked passage holds it, the judge says (50% confident),"
                + " though every piece the question needs is in some passage: read them before adding content")
                .noneSatisfy(e -> assertThat(e).contains("0% of the needed information"));
    }

    @Test
    void shouldNotDecideAGapWhenTheAnswerDidNotRefuse() {
        // an answer made up without any passage is the generator's fault to flag; no refusal, no gap decided
        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.of(Stage.RETRIEVE, Stage.GENERATE),
                run(80.0, 1.0, 0, 0.75, 0.0));
        assertThat(gap.flagged()).isFalse();
        assertThat(gap.score()).as("the signals still say a lot is missing").isGreaterThan(0.8);
    }

    @Test
    void shouldNotDecideAGapWhenTheJudgeFindsAnAnsweringPassage() {
        KnowledgeGap gap = KnowledgeGapRule.decide(EnumSet.of(Stage.GENERATE),
                run(KnowledgeGapRule.NO_ANSWER_FROM - 5, 0.0, 1, 0.0, 0.0));
        assertThat(gap.flagged()).as("a refusal with the answer at hand is the generator's").isFalse();
        assertThat(gap.score()).isLessThan(0.5);
        assertThat(KnowledgeGapRule.decide(EnumSet.noneOf(Stage.class),
                run(KnowledgeGapRule.NO_ANSWER_FROM, 0.0, 1, 0.0, 0.0)).flagged()).as("at the bound").isTrue();
    }

    @Test
    void shouldLeaveItUndecidedWithoutTheJudgesChecks() {
        assertThat(KnowledgeGapRule.decide(EnumSet.of(Stage.RETRIEVE), run(null, null, 1, null, null)))
                .isEqualTo(KnowledgeGap.undecided());
    }
}

package io.raglog.score;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.WEATHER;
import static io.raglog.checks.RunBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureAssembler;
import io.raglog.checks.FeatureList;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.OfflineJudge;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A flagged stage's evidence states each fact once, with the checks that agree, the strongest first. */
class EvidenceTest {

    private static final String JUDGE = OfflineJudge.ID;
    private static final Fact JAPANESE = Fact.of(Stage.RETRIEVE, FactKind.MISSING_TERM, Fact.term("name", "japanese"));

    @Test
    void shouldStateAMissingNameOnceWhenRulesJudgeAndEvidenceFlowAllFoundIt() {
        RunFeatures f = features(Map.of(RETRIEVE_KEY_TERMS_MISSING, 1.0),
                flow(new EvidencePiece("the name 'Japanese'", EvidenceLocation.NOWHERE, AnswerUse.OMITTED, List.of(),
                        JAPANESE.subject())),
                Finding.of("retrieve.terms", JAPANESE, "no retrieved passage mentions the name 'Japanese'"),
                Finding.of("llm.retrieval", JAPANESE, "no retrieved passage has the name 'Japanese'"),
                Finding.of("llm.evidence_flow", JAPANESE, "the name 'Japanese' is in no retrieved passage"));

        List<String> evidence = Evidence.forStage(Stage.RETRIEVE, f, 0.9, 0.5);

        assertThat(evidence).containsExactly("no retrieved passage mentions the name 'Japanese' (rules and LLM judge)");
    }

    @Test
    void shouldPutTheFactMostChecksAgreeOnFirst() {
        Fact year = Fact.of(Stage.RETRIEVE, FactKind.MISSING_TERM, Fact.term("date", "1868"));
        RunFeatures f = features(Map.of(),  null,
                Finding.of("retrieve.terms", year, "no retrieved passage mentions the date '1868'"),
                Finding.of("retrieve.terms", JAPANESE, "no retrieved passage mentions the name 'Japanese'"),
                Finding.of("llm.retrieval", JAPANESE, "no retrieved passage has the name 'Japanese'"));

        assertThat(Evidence.forStage(Stage.RETRIEVE, f, 0.9, 0.5)).containsExactly(
                "no retrieved passage mentions the name 'Japanese' (rules and LLM judge)",
                "no retrieved passage mentions the date '1868' (rules)");
    }

    @Test
    void shouldNameThePassageADroppedPieceIsInAndTheChecksThatAgree() {
        Fact dropped = Fact.of(Stage.RERANK, FactKind.MISSING_TERM, Fact.term("date", "2023"));
        RunFeatures f = features(Map.of(RERANK_INPUT_COUNT, 20.0, RERANK_OUTPUT_COUNT, 5.0),
                flow(new EvidencePiece("the date '2023'", EvidenceLocation.ONLY_DROPPED, AnswerUse.OMITTED,
                        List.of("doc-7#2"), dropped.subject())),
                Finding.of("rerank.order", dropped, "the reranker dropped every passage that mentions the date '2023'"),
                Finding.of("llm.evidence_flow", dropped.withPassages(List.of("doc-7#2")),
                        "the date '2023' was retrieved (doc-7#2) but never reached the generator"));

        assertThat(Evidence.forStage(Stage.RERANK, f, 0.9, 0.5)).containsExactly(
                "the reranker dropped every passage that mentions the date '2023' (passage doc-7#2; rules and LLM judge)");
    }

    @Test
    void shouldJoinAJudgesConfidenceToTheFactItBacksAndNameTheJudgeBesideItsFigure() {
        Fact answer = Fact.of(Stage.RETRIEVE, FactKind.MISSING_ANSWER, Fact.ANSWER);
        RunFeatures f = features(Map.of(LLM_RETRIEVE_NO_ANSWER, 97.0),
                flow(new EvidencePiece("the answer to 'operating cash flow'", EvidenceLocation.NOWHERE,
                        AnswerUse.OMITTED, List.of(), Fact.ANSWER)),
                Finding.of("llm.retrieval", answer, "no retrieved passage has the answer to 'operating cash flow'"));

        assertThat(Evidence.forStage(Stage.RETRIEVE, f, 0.9, 0.5)).containsExactly(
                "no retrieved passage has the answer to 'operating cash flow' (LLM judge " + JUDGE + ": 97/100)");
    }

    @Test
    void shouldNotRepeatAsACountWhatTheFindingsStateOneByOne() {
        Fact lost = Fact.of(Stage.REWRITE, FactKind.MISSING_TERM, Fact.term("date", "2023"));
        RunFeatures rewrite = features(Map.of(REWRITE_LOST_DATES, 1.0, LLM_REWRITE_DROPPED, 90.0), null,
                Finding.of("rewrite.lost_terms", lost, "rewrite dropped the date '2023'"),
                Finding.of("llm.rewrite", lost, "the rewrite lost the date '2023'"));
        Fact cut = Fact.of(Stage.EMBED, FactKind.CUT_OFF, "");
        RunFeatures embed = features(Map.of(EMBED_TRUNCATED, 1.0), null,
                Finding.of("embed.text", cut, "the embedded text is cut off: 3 of 9 words of the query"));
        Fact number = Fact.of(Stage.GENERATE, FactKind.UNSUPPORTED_TERM, Fact.term("number", "4.7"));
        RunFeatures generate = features(Map.of(GENERATE_UNSUPPORTED_NUMBERS, 1.0), null,
                Finding.of("generate.grounding", number, "the answer's number '4.7' appears nowhere in its context"));

        assertThat(Evidence.forStage(Stage.REWRITE, rewrite, 0.9, 0.5))
                .containsExactly("rewrite dropped the date '2023' (rules and LLM judge)");
        assertThat(Evidence.forStage(Stage.EMBED, embed, 0.9, 0.5))
                .containsExactly("the embedded text is cut off: 3 of 9 words of the query (rules)");
        assertThat(Evidence.forStage(Stage.GENERATE, generate, 0.9, 0.5))
                .containsExactly("the answer's number '4.7' appears nowhere in its context (rules)");
    }

    @Test
    void shouldKeepFindingsWrittenBeforeFactsAndQuoteAModelsPieceOnce() {
        RunFeatures f = features(Map.of(),
                flow(new EvidencePiece("operating cash flow for 2023", EvidenceLocation.NOWHERE, AnswerUse.OMITTED,
                        List.of())),
                new Finding(Stage.RETRIEVE, "llm.retrieval", "the passages are about the weather"));

        assertThat(Evidence.forStage(Stage.RETRIEVE, f, 0.9, 0.5)).containsExactly(
                "the passages are about the weather (LLM judge)",
                "no retrieved passage holds 'operating cash flow for 2023' (LLM judge)");
    }

    /** The whole path: the rule and vector checks, the offline judge, the features, the evidence. */
    @Test
    void shouldStateEachFactOnceForARetrievalThatMissedEverything() throws Exception {
        Run run = healthy().retrieved(WEATHER).reranked(WEATHER).build();
        RunFeatures f;
        try (MiniLmEmbedder model = new MiniLmEmbedder()) {
            CachedEmbedder embedder = new CachedEmbedder(model, 1000);
            CheckedRun cheap = new CheapChecks(embedder).apply(run);
            LlmResult llm = new LlmChecks(new OfflineJudge(embedder), false).run(run).get(60, TimeUnit.SECONDS);
            f = FeatureAssembler.assemble(cheap, llm.features(), llm.findings(), llm.evidenceFlow(), llm.usage());
        }

        List<String> retrieve = Evidence.forStage(Stage.RETRIEVE, f, 0.9, 0.5);
        List<String> generate = Evidence.forStage(Stage.GENERATE, f, 0.9, 0.5);

        assertThat(retrieve).filteredOn(s -> s.contains("the name 'Acme Corp'")).singleElement().asString()
                .endsWith("(rules and LLM judge)");
        assertThat(retrieve).filteredOn(s -> s.contains("the date '2023'")).singleElement().asString()
                .endsWith("(rules and LLM judge)");
        assertThat(retrieve).filteredOn(s -> s.contains("the answer to")).singleElement().asString()
                .contains("the answer to 'What was the operating cash flow of Acme Corp in 2023?'");
        assertThat(retrieve).noneMatch(s -> s.contains("''") || s.contains("'the "));
        assertThat(generate).as("what retrieval missed is retrieval's evidence, not the generator's")
                .noneMatch(s -> s.contains("in no retrieved passage"));
    }

    private static EvidenceFlow flow(EvidencePiece... pieces) {
        return new EvidenceFlow(List.of(pieces));
    }

    private static RunFeatures features(Map<String, Double> values, EvidenceFlow flow, Finding... findings) {
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "support-bot", "When did the Japanese ...?",
                FeatureList.VERSION, new LinkedHashMap<>(values),
                new LlmUsage(5, 0, 0, 0.0, false, List.of(), JUDGE), flow, List.of(findings));
    }
}

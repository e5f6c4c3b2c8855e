package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The offline judge answers the same five checks with no network, deterministically. */
class OfflineJudgeTest {

    private static MiniLmEmbedder model;
    private static LlmChecks checks;

    @BeforeAll
    static void load() {
        model = new MiniLmEmbedder();
        checks = new LlmChecks(new OfflineJudge(new CachedEmbedder(model, 1000)), false);
    }

    @AfterAll
    static void close() {
        model.close();
    }

    private static LlmResult judge(Run run) throws Exception {
        return checks.run(run).get(30, TimeUnit.SECONDS);
    }

    @Test
    void shouldAnswerAllFiveChecksOfAHealthyRunWithLowFaultConfidence() throws Exception {
        LlmResult r = judge(healthy().build());
        assertThat(r.usage().judge()).isEqualTo(OfflineJudge.ID);
        assertThat(r.usage().calls()).isEqualTo(5);
        assertThat(r.usage().costUsd()).isZero();
        assertThat(r.usage().degraded()).isFalse();
        assertThat(r.features().get(LLM_REWRITE_FAULT)).isLessThan(30);
        assertThat(r.features().get(LLM_RETRIEVE_NO_ANSWER)).isLessThan(30);
        assertThat(r.features().get(LLM_RERANK_ANSWER_DROPPED)).isLessThan(30);
        assertThat(r.features().get(LLM_SUPPORT_UNSUPPORTED)).isZero();
        assertThat(r.evidenceFlow().pieces()).isNotEmpty().allSatisfy(p -> {
            assertThat(p.location()).isEqualTo(EvidenceLocation.IN_CONTEXT);
            assertThat(p.answer()).isEqualTo(AnswerUse.INCLUDED);
        });
    }

    @Test
    void shouldTraceTheYearToAPassageTheRerankerDropped() throws Exception {
        LlmResult r = judge(healthy().reranked(REVENUE_2022, WEATHER).answer("Revenue grew 12% in 2022.").build());
        EvidencePiece year = r.evidenceFlow().pieces().stream().filter(p -> p.piece().contains("2023"))
                .findFirst().orElseThrow();
        assertThat(year.location()).isEqualTo(EvidenceLocation.ONLY_DROPPED);
        assertThat(year.passageIds()).contains(CASH_2023.id());
        assertThat(year.answer()).isEqualTo(AnswerUse.CONTRADICTED);
        assertThat(r.evidenceFlow().anyOnlyInDropped()).isTrue();
        assertThat(r.features().get(FLOW_DROPPED_SHARE)).isGreaterThan(0);
        assertThat(r.features().get(LLM_RERANK_ANSWER_DROPPED)).isGreaterThanOrEqualTo(50);
    }

    @Test
    void shouldFindNeededInformationNowhereWhenRetrievalMissedIt() throws Exception {
        LlmResult r = judge(healthy().retrieved(WEATHER).reranked(WEATHER).build());
        assertThat(r.features().get(FLOW_MISSING_SHARE)).isGreaterThan(0.5);
        assertThat(r.features().get(LLM_RETRIEVE_NO_ANSWER)).isGreaterThanOrEqualTo(50);
        assertThat(r.features().get(LLM_RETRIEVE_OFF_TOPIC)).isGreaterThan(0);
    }

    @Test
    void shouldSeeARewriteThatDroppedTheYear() throws Exception {
        LlmResult r = judge(healthy().rewrites("Acme Corp operating cash flow").build());
        assertThat(r.features().get(LLM_REWRITE_DROPPED)).isEqualTo(50.0);
        assertThat(r.findings()).extracting(f -> f.text()).contains("the rewrite lost the date '2023'");
    }

    @Test
    void shouldCatchAnAnswerStatingANumberTheContextDoesNotHave() throws Exception {
        LlmResult r = judge(healthy().answer("Acme Corp's operating cash flow in 2023 was $5.7 billion.").build());
        assertThat(r.features().get(LLM_SUPPORT_STATEMENTS)).isEqualTo(1.0);
        assertThat(r.features().get(LLM_SUPPORT_CONTRADICTED)).isEqualTo(1.0);
        assertThat(r.features().get(LLM_SUPPORT_FAULT)).isEqualTo(100.0);
    }

    @Test
    void shouldJudgeACitedListedOrEmphasisedAnswerAsItJudgesThePlainOne() throws Exception {
        LlmResult plain = judge(healthy().build());
        for (String dressed : List.of(
                "Acme Corp's operating cash flow in 2023 was $4.1 billion [1].",
                "Acme Corp's operating cash flow in 2023 was $4.1 billion [Doc 2][Doc 3].",
                "Acme Corp's operating cash flow in 2023 was $4.1 billion (source: Acme Corp 10-K).",
                "- Acme Corp's operating cash flow in 2023 was $4.1 billion.",
                "**Acme Corp's operating cash flow in 2023 was $4.1 billion.**")) {
            assertThat(judge(healthy().answer(dressed).build()).features()).as(dressed).isEqualTo(plain.features());
        }
    }

    @Test
    void shouldGiveTheSameAnswersForTheSameRun() throws Exception {
        Run run = healthy().reranked(REVENUE_2022, CAPEX_2023).build();
        assertThat(judge(run)).isEqualTo(judge(run));
    }
    @Test
    void shouldLocateTheAnswerInAPassageTheRerankerCut() throws Exception {
        LlmResult r = judge(healthy().reranked(REVENUE_2022, WEATHER).answer("I don't know.").build());
        EvidencePiece answer = r.evidenceFlow().pieces().stream().filter(p -> p.piece().startsWith("the answer to"))
                .findFirst().orElseThrow();
        assertThat(answer.piece()).as("named by the question as asked, not by its stems")
                .isEqualTo("the answer to 'What was the operating cash flow of Acme Corp in 2023?'");
        assertThat(answer.location()).isEqualTo(EvidenceLocation.ONLY_DROPPED);
        // a lexical proxy: the capital-expenditure sentence names Acme Corp and 2023 too, so it counts as well
        assertThat(answer.passageIds()).contains(CASH_2023.id()).doesNotContain(REVENUE_2022.id(), WEATHER.id());
        assertThat(answer.answer()).isEqualTo(AnswerUse.OMITTED);
        assertThat(r.features().get(LLM_RERANK_ANSWER_DROPPED)).isGreaterThanOrEqualTo(50);
    }

    @Test
    void shouldTraceTheYearIntoThePartOfAPassageTheContextBudgetCutOff() throws Exception {
        LlmResult r = judge(healthy().budgetCutBeforeTheAnswer().build());

        // retrieved, handed on, and cut before the prompt: not "in no retrieved passage", and assembly's to answer for
        EvidencePiece year = r.evidenceFlow().pieces().stream().filter(p -> p.piece().contains("2023"))
                .findFirst().orElseThrow();
        assertThat(year.location()).isEqualTo(EvidenceLocation.ONLY_DROPPED);
        assertThat(year.passageIds()).containsExactly(CASH_AFTER_PUMPS.id());
        assertThat(r.evidenceFlow().pieces()).noneMatch(p -> p.location() == EvidenceLocation.NOWHERE);
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.fact().stage()).isEqualTo(Stage.ASSEMBLE);
            assertThat(f.text()).contains("the date '2023'", "handed on to the prompt (doc-7#1)");
        });
        assertThat(r.findings()).noneMatch(f -> f.fact() != null && f.fact().stage() == Stage.RETRIEVE);
    }

    @Test
    void shouldSeeARewriteThatSaysAnotherWordThanTheQuestion() throws Exception {
        LlmResult r = judge(healthy().rewrites("Acme Corp weather cash flow 2023").build());
        assertThat(r.features().get(LLM_REWRITE_CHANGED)).isGreaterThanOrEqualTo(70);
        assertThat(r.findings()).extracting(f -> f.text())
                .contains("the rewrite says 'weather' where the question said 'operating'");
    }
}

package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.KnownPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleChecksTest {

    private final List<Finding> findings = new ArrayList<>();

    private FeatureVector check(Run run) {
        FeatureVector v = new FeatureVector();
        RuleChecks.apply(run, v, findings);
        return v;
    }

    private List<String> findingTexts(Stage stage) {
        return findings.stream().filter(f -> f.stage() == stage).map(Finding::text).toList();
    }

    @Test
    void shouldFindNamesNumbersAndDatesOfAQuestion() {
        assertThat(Terms.keyTerms("What was the operating cash flow of Acme Corp in Q3 2023, above 4,100 units?"))
                .extracting(KeyTerm::toString)
                .containsExactlyInAnyOrder("date '2023'", "date 'Q3'", "number '4,100'", "name 'Acme Corp'");
        assertThat(Terms.keyTerms("Revenue grew in March for IBM.")).extracting(KeyTerm::toString)
                .containsExactlyInAnyOrder("date 'March'", "name 'IBM'");
    }

    @Test
    void shouldReportNothingLostForAHealthyRun() {
        FeatureVector v = check(healthy().build());
        assertThat(v.get(REWRITE_LOST_SHARE)).isZero();
        assertThat(v.get(EMBED_LOST_KEY_TERMS)).isZero();
        assertThat(v.get(EMBED_NEAR_MISS_WORDS)).isZero();
        assertThat(v.get(EMBED_ADDED_WORDS)).isZero();
        assertThat(v.get(EMBED_TRUNCATED)).isZero();
        assertThat(v.get(RETRIEVE_KEY_TERMS_MISSING)).isZero();
        assertThat(v.get(RERANK_DROPPED_COUNT)).isEqualTo(2.0);
        assertThat(v.get(RERANK_KEY_TERMS_LOST)).isZero();
        assertThat(v.get(GENERATE_UNSUPPORTED_NUMBERS)).isZero();
        assertThat(v.get(GENERATE_REFUSES)).isZero();
        assertThat(findings).isEmpty();
    }

    @Test
    void shouldCountTheDateAndNameARewriteDropped() {
        FeatureVector v = check(healthy().rewrites("operating cash flow").build());
        assertThat(v.get(REWRITE_LOST_DATES)).isEqualTo(1.0);
        assertThat(v.get(REWRITE_LOST_NAMES)).isEqualTo(1.0);
        assertThat(v.get(REWRITE_LOST_NUMBERS)).isZero();
        assertThat(v.get(REWRITE_LOST_SHARE)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.REWRITE)).containsExactly("rewrite dropped the date '2023'",
                "rewrite dropped the name 'Acme Corp'");
    }

    @Test
    void shouldJudgeAMultiQueryRewriteByWhatAllQueriesTogetherLost() {
        FeatureVector v = check(healthy().rewrites("Acme Corp cash flow", "operating cash flow 2023").build());
        assertThat(v.get(REWRITE_OUTPUT_COUNT)).isEqualTo(2.0);
        assertThat(v.get(REWRITE_LOST_SHARE)).isZero();
        assertThat(v.get(REWRITE_WORST_OUTPUT_LOST_SHARE)).isEqualTo(0.5);
    }

    @Test
    void shouldFlagEmbeddedTextWithATypoAndAnAddedWord() {
        FeatureVector v = check(healthy().embedded("Acme Corp operating cash flwo 2023 bitcoin").build());
        assertThat(v.get(EMBED_NEAR_MISS_WORDS)).isEqualTo(1.0);
        assertThat(v.get(EMBED_ADDED_WORDS)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.EMBED)).anySatisfy(t -> assertThat(t).contains("'flwo'", "'flow'"))
                .anySatisfy(t -> assertThat(t).contains("bitcoin"));
    }

    @Test
    void shouldNotSayAWordStandsInTheQuerysPlaceWhenTheQueryStillHoldsIt() {
        // the query embedded inside a chat history: "flow" is there, and the history's "slow" replaced nothing
        FeatureVector v = check(healthy()
                .embedded("Human: was the launch slow? AI: yes. Human: Acme Corp operating cash flow 2023").build());
        assertThat(v.get(EMBED_NEAR_MISS_WORDS)).as("the feature counts the word as near, as it always did")
                .isEqualTo(1.0);
        assertThat(findingTexts(Stage.EMBED)).noneSatisfy(t -> assertThat(t).contains("where the query says"));

        FeatureVector typo = check(healthy().embedded("Human: when was it founded? AI: in 1990. Human: Acme Corp"
                + " operating cash flwo 2023").build());
        assertThat(typo.get(EMBED_NEAR_MISS_WORDS)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.EMBED)).anySatisfy(t -> assertThat(t).contains("'flwo' where the query says"
                + " 'flow'"));
    }

    @Test
    void shouldReadAPrefixedQueryAsTheQueryWithoutItsModelsInstruction() {
        FeatureVector v = check(healthy()
                .embedded("Represent this sentence for searching relevant passages: Acme Corp operating cash flow 2023")
                .build());
        assertThat(v.get(EMBED_ADDED_WORDS)).isZero();
        assertThat(v.get(EMBED_LENGTH_RATIO)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.EMBED)).isEmpty();

        FeatureVector typo = check(healthy().embedded("query: Acme Corp operating cash flwo 2023").build());
        assertThat(typo.get(EMBED_NEAR_MISS_WORDS)).isEqualTo(1.0);
        assertThat(typo.get(EMBED_ADDED_WORDS)).isZero();
    }

    @Test
    void shouldFlagTruncatedEmbeddedTextThatLostTheYear() {
        FeatureVector v = check(healthy().embedded("Acme Corp operating cash fl").build());
        assertThat(v.get(EMBED_TRUNCATED)).isEqualTo(1.0);
        assertThat(v.get(EMBED_LOST_KEY_TERMS)).isEqualTo(1.0);
        assertThat(v.get(EMBED_LENGTH_RATIO)).isLessThan(1.0);
    }

    @Test
    void shouldCompareEmbeddedTextWithTheQuestionWhenThereIsNoRewrite() {
        FeatureVector v = check(healthy().noRewrite().embedded("What was the operating cash flow in 2023?").build());
        assertThat(v.get(EMBED_LOST_KEY_TERMS)).isEqualTo(1.0); // Acme Corp
        assertThat(v.get(REWRITE_LOST_SHARE)).as("rewrite absent: missing, not zero").isNull();
        assertThat(v.get(REWRITE_OUTPUT_COUNT)).isNull();
    }

    @Test
    void shouldNoticeRetrievedPassagesNeverMentionTheYear() {
        FeatureVector v = check(healthy().retrieved(REVENUE_2022, WEATHER).reranked(REVENUE_2022).build());
        assertThat(v.get(RETRIEVE_KEY_TERMS_MISSING)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.RETRIEVE)).containsExactly("no retrieved passage mentions the date '2023'");
        assertThat(v.get(RETRIEVE_BEST_TERM_COVERAGE)).isLessThan(1.0);
    }

    @Test
    void shouldNoticeTheRerankerDroppedEveryPassageWithTheYear() {
        FeatureVector v = check(healthy().reranked(REVENUE_2022, WEATHER).build());
        assertThat(v.get(RERANK_INPUT_TOP_DROPPED)).isEqualTo(1.0);
        assertThat(v.get(RERANK_KEY_TERMS_LOST)).isEqualTo(1.0);
        assertThat(v.get(RERANK_DROPPED_COUNT)).isEqualTo(2.0);
        assertThat(v.get(RERANK_ORDER_VS_INPUT)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.RERANK)).contains("the reranker dropped every passage that mentions the date '2023'");
    }

    @Test
    void shouldMeasureRerankOrderAgainstInputOrderAndCatchInventedIds() {
        FeatureVector v = check(healthy().reranked(CAPEX_2023, REVENUE_2022, CASH_2023,
                new io.raglog.schemas.Passage("ghost", "never given", 0.9, 4)).build());
        assertThat(v.get(RERANK_ORDER_VS_INPUT)).isEqualTo(-1.0);
        assertThat(v.get(RERANK_UNKNOWN_IDS)).isEqualTo(1.0);
    }

    @Test
    void shouldFindAnswerNumbersAndNamesThatAreNotInTheContext() {
        FeatureVector v = check(healthy().answer("Globex Inc reported $5.7 billion in 2023.").build());
        assertThat(v.get(GENERATE_UNSUPPORTED_NUMBERS)).isEqualTo(1.0);
        assertThat(v.get(GENERATE_UNSUPPORTED_NAMES)).isEqualTo(1.0);
        assertThat(v.get(GENERATE_UNSUPPORTED_SHARE)).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(findingTexts(Stage.GENERATE)).contains("the answer's number '5.7' appears nowhere in its context");
    }

    @Test
    void shouldReadACitedOrListedAnswerByWhatItClaimsNotByItsMarkers() {
        FeatureVector cited = check(healthy().answer("Acme Corp reported $4.1 billion [3].").build());
        assertThat(cited.get(GENERATE_UNSUPPORTED_NUMBERS)).isZero();
        assertThat(cited.get(GENERATE_UNSUPPORTED_SHARE)).isZero();
        assertThat(findings).noneMatch(f -> f.fact().kind() == FactKind.UNSUPPORTED_TERM);
        // the markers no longer pass for the number a "when" question asks for
        FeatureVector when = check(healthy().question("In what year did Acme Corp report its cash flow?")
                .answer("1. Acme Corp's treasurer [2]\n2. Its auditors").build());
        assertThat(when.get(GENERATE_WRONG_KIND)).isEqualTo(1.0);
        // what a listed answer claims is still read
        assertThat(check(healthy().answer("- Acme Corp\n- $5.7 billion").build()).get(GENERATE_UNSUPPORTED_NUMBERS))
                .isEqualTo(1.0);
    }

    @Test
    void shouldRecogniseAnAnswerThatDeclines() {
        FeatureVector v = check(healthy().answer("The context does not mention Acme's 2023 cash flow.").build());
        assertThat(v.get(GENERATE_REFUSES)).isEqualTo(1.0);
    }

    @Test
    void shouldReadARunItsRelevanceGateStoppedAsOneThatDeclinedAndSaySoInTheGatesWords() {
        FeatureVector v = check(healthy().stoppedByGate("INSUFFICIENT\nThe chunks give revenue, not cash flow.")
                .build());

        assertThat(v.get(GENERATE_REFUSES)).isEqualTo(1.0);
        assertThat(findings).filteredOn(f -> f.check().equals(RuleChecks.RELEVANCE_GATE_CHECK))
                .singleElement().satisfies(f -> {
                    assertThat(f.stage()).isEqualTo(Stage.GENERATE);
                    assertThat(f.fact().kind()).isEqualTo(FactKind.REFUSAL);
                    assertThat(f.text()).isEqualTo("the pipeline's own relevance gate judged the context insufficient "
                            + "and stopped the run before generating (it replied \"INSUFFICIENT ...\")");
                });
        // told once, in the gate's words: not also as an answer that declined
        assertThat(findingTexts(Stage.GENERATE)).noneMatch(t -> t.startsWith("the answer says"));
    }

    @Test
    void shouldSayWhenTheAnswerIsNotTheKindTheQuestionAsksFor() {
        FeatureVector when = check(healthy().question("In what year did Acme Corp report its cash flow?")
                .answer("Acme Corp's treasurer.").build());
        assertThat(when.get(GENERATE_WRONG_KIND)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.GENERATE))
                .contains("the question asks for a time; the answer holds no number and no word of time");
        findings.clear();
        FeatureVector year = check(healthy().question("In what year did Acme Corp report its cash flow?")
                .answer("In 2023.").build());
        assertThat(year.get(GENERATE_WRONG_KIND)).isZero();
        assertThat(findings).noneMatch(f -> f.fact().kind() == FactKind.WRONG_KIND);
        // what the answer to a "what" question should look like, words cannot say: nothing is read
        assertThat(check(healthy().answer("Acme Corp's treasurer.").build()).get(GENERATE_WRONG_KIND)).isNull();
        // nor of a refusal, which says it has no answer of any kind
        assertThat(check(healthy().question("How many units did Acme Corp sell?").answer("I don't know.").build())
                .get(GENERATE_WRONG_KIND)).isNull();
    }

    @Test
    void shouldSayWhenTheAnswerRestatesTheQuestionTurnedAgainstIt() {
        // the answer copies the sentence the question was written from, without the question's "not"
        FeatureVector lost = check(healthy().question("Which cash flow did Acme Corp not report for 2023?")
                .answer("Acme Corp reported operating cash flow of $4.1 billion in 2023.").build());
        assertThat(lost.get(GENERATE_TURNED_AGAINST_QUESTION)).isEqualTo(1.0);
        assertThat(findings).filteredOn(f -> f.stage() == Stage.GENERATE && f.fact().kind() == FactKind.CHANGED_WORD)
                .singleElement().satisfies(f -> {
                    assertThat(f.fact().subject()).isEqualTo("not>");
                    assertThat(f.text()).isEqualTo("the answer restates the question turned against it: lacks the "
                            + "question's 'not'");
                });
        findings.clear();
        // or with the opposite of one of its words
        FeatureVector opposite = check(healthy().question("What did Acme Corp report before 2023?")
                .answer("Acme Corp reported operating cash flow after 2023.").build());
        assertThat(opposite.get(GENERATE_TURNED_AGAINST_QUESTION)).isEqualTo(1.0);
        assertThat(findings).anyMatch(f -> f.fact().kind() == FactKind.CHANGED_WORD
                && f.fact().subject().equals("before>after"));
        findings.clear();
        // an answer that keeps the question's turn, and a short span that restates nothing, are not read as turned
        assertThat(check(healthy().question("Which cash flow did Acme Corp not report for 2023?")
                .answer("Acme Corp did not report its investing cash flow for 2023.").build())
                .get(GENERATE_TURNED_AGAINST_QUESTION)).isZero();
        assertThat(check(healthy().question("Which cash flow did Acme Corp not report for 2023?")
                .answer("Investing cash flow.").build()).get(GENERATE_TURNED_AGAINST_QUESTION)).isZero();
        // a refusal turns nothing and is not read
        assertThat(check(healthy().question("Which cash flow did Acme Corp not report for 2023?")
                .answer("I don't know.").build()).get(GENERATE_TURNED_AGAINST_QUESTION)).isNull();
    }

    @Test
    void shouldSourceAnAnswerByItsBestStatementNotByTheSentencesThatDressIt() {
        // the answer, then what surrounds it in the passage: read whole, its words come mostly from the pumps sentence
        FeatureVector dressed = check(healthy().context(RunBuilder.CASH_AFTER_PUMPS)
                .answer("$4.1 billion. " + RunBuilder.PUMPS).build());
        assertThat(dressed.get(GENERATE_ANSWER_SOURCE_MATCH)).isLessThan(0.5);
        assertThat(dressed.get(GENERATE_ANSWERING_STATEMENT_MATCH)).isEqualTo(dressed.get(GENERATE_CONTEXT_ANSWER_MATCH));
        assertThat(dressed.get(GENERATE_ANSWERING_STATEMENT_GAP)).isZero();
        // listed, the same
        FeatureVector listed = check(healthy().context(RunBuilder.CASH_AFTER_PUMPS)
                .answer("Key points:\n- $4.1 billion\n- " + RunBuilder.PUMPS).build());
        assertThat(listed.get(GENERATE_ANSWERING_STATEMENT_GAP)).isZero();
        // an answer taken only from the sentence that does not answer stays as far from the best as read whole
        FeatureVector wrong = check(healthy().context(RunBuilder.CASH_AFTER_PUMPS)
                .answer("Industrial pumps. They are made at plants in Ohio and Texas.").build());
        assertThat(wrong.get(GENERATE_ANSWERING_STATEMENT_MATCH)).isEqualTo(wrong.get(GENERATE_ANSWER_SOURCE_MATCH));
        assertThat(wrong.get(GENERATE_ANSWERING_STATEMENT_GAP)).isGreaterThanOrEqualTo(0.5);
        // a refusal states no answer to source
        assertThat(check(healthy().answer("I don't know.").build()).get(GENERATE_ANSWERING_STATEMENT_MATCH)).isNull();
    }

    @Test
    void shouldSayWhenTheRetrievedSentenceMostLikeTheAnswerDoesNotAnswerTheQuestionAsAsked() {
        check(healthy().question("Which cash flow did Acme Corp not report for 2023?").build());
        assertThat(findings).filteredOn(f -> f.fact() != null && f.fact().kind() == FactKind.SEEMING_ANSWER)
                .singleElement().satisfies(f -> {
                    assertThat(f.stage()).isEqualTo(Stage.RETRIEVE);
                    assertThat(f.fact().passageIds()).containsExactly("doc-7#2");
                    assertThat(f.text()).contains("Acme Corp reported operating cash flow of $4.1 billion in 2023")
                            .endsWith("it lacks the question's 'not'");
                });
        findings.clear();
        check(healthy().build());
        assertThat(findings).as("the sentence that answers, as asked").noneMatch(f -> f.fact() != null
                && f.fact().kind() == FactKind.SEEMING_ANSWER);
        // a year no retrieved passage names is told once, as a term no passage mentions
        check(healthy().question("What was the operating cash flow of Acme Corp in 2024?").build());
        assertThat(findingTexts(Stage.RETRIEVE)).contains("no retrieved passage mentions the date '2024'")
                .noneMatch(t -> t.contains("does not answer the question as asked"));
    }

    @Test
    void shouldLeaveEveryFeatureOfAnAbsentStageMissing() {
        FeatureVector v = check(healthy().noRerank().noRewrite().build());
        for (FeatureList.Feature f : FeatureList.forStage(Stage.RERANK)) {
            assertThat(v.get(f.name())).as(f.name()).isNull();
        }
        assertThat(v.get(RETRIEVE_PASSAGE_COUNT)).isEqualTo(4.0);
    }

    @Test
    void shouldMarkReconstructedRetrieval() {
        assertThat(check(healthy().reconstructed().build()).get(RETRIEVE_RECONSTRUCTED)).isEqualTo(1.0);
    }
    @Test
    void shouldReadTheRerankersCutFromTheContextWhenItScoredEveryPassage() {
        // Voyage without top_k scores all four; the pipeline kept two: the answering passage was not among them
        Run run = healthy().reranked(REVENUE_2022, WEATHER, CAPEX_2023, CASH_2023).context(REVENUE_2022, WEATHER)
                .build();
        assertThat(RunTexts.kept(run)).extracting(p -> p.id()).containsExactly(REVENUE_2022.id(), WEATHER.id());
        FeatureVector v = check(run);
        assertThat(v.get(RERANK_OUTPUT_COUNT)).isEqualTo(2.0);
        assertThat(v.get(RERANK_DROPPED_COUNT)).isEqualTo(2.0);
        assertThat(v.get(RERANK_DROPPED_ANSWER_GAP)).isGreaterThan(0.4);
        assertThat(findingTexts(Stage.RERANK)).anyMatch(t -> t.contains(CASH_2023.id()));
    }

    @Test
    void shouldReadTheRerankersCutFromItsReplyWhenItKeptItsTopN() {
        // a top-3 reranker kept the answering passage; the context budget dropped it after: assembly's loss
        Run run = healthy().reranked(CASH_2023, REVENUE_2022, WEATHER).context(REVENUE_2022, WEATHER).build();
        assertThat(RunTexts.kept(run)).extracting(p -> p.id())
                .containsExactly(CASH_2023.id(), REVENUE_2022.id(), WEATHER.id());
        FeatureVector v = check(run);
        assertThat(v.get(RERANK_OUTPUT_COUNT)).isEqualTo(3.0);
        assertThat(v.get(RERANK_DROPPED_COUNT)).isEqualTo(1.0);
        assertThat(findingTexts(Stage.RERANK)).noneMatch(t -> t.contains(CASH_2023.id()));
    }

    @Test
    void shouldMatchAHyphenatedNameTheRewriteWroteApart() {
        FeatureVector v = check(healthy().question("Which languages used the Phags-pa script?")
                .rewrites("languages used Phags pa script").build());
        assertThat(v.get(REWRITE_LOST_NAMES)).isZero();
        assertThat(v.get(REWRITE_LOST_WORDS)).isZero();
        assertThat(v.get(REWRITE_ADDED_WORDS)).isZero();
    }

    @Test
    void shouldCountQuestionWordsTheRewriteLostButNotTheirOtherForms() {
        FeatureVector kept = check(healthy().question("Where were the Acme Corp headquarters located?")
                .rewrites("Acme Corp headquarters location").build());
        assertThat(kept.get(REWRITE_LOST_WORDS)).isZero();
        assertThat(kept.get(REWRITE_ADDED_WORDS)).isZero();
        FeatureVector swapped = check(healthy().question("Where were the Acme Corp headquarters located?")
                .rewrites("Acme Corp warehouses location").build());
        assertThat(swapped.get(REWRITE_LOST_WORDS)).isEqualTo(1.0);
        assertThat(swapped.get(REWRITE_ADDED_WORDS)).isEqualTo(1.0);
    }

    @Test
    void shouldSeeWhetherTheAnswerCameFromASentenceThatAnswersTheQuestion() {
        FeatureVector sound = check(healthy().build());
        assertThat(sound.get(RETRIEVE_ANSWER_MATCH)).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(sound.get(GENERATE_CONTEXT_ANSWER_MATCH)).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(sound.get(GENERATE_ANSWER_FOUND)).isEqualTo(1.0);
        assertThat(sound.get(GENERATE_ANSWER_MISSING_WORDS)).isZero();
        FeatureVector swapped = check(healthy().answer("Acme Corp's operating cash flow in 2023 was $5.7 billion.")
                .build());
        assertThat(swapped.get(GENERATE_ANSWER_MISSING_WORDS)).isEqualTo(1.0);
        FeatureVector missed = check(healthy().retrieved(REVENUE_2022, WEATHER).reranked(REVENUE_2022, WEATHER)
                .answer("I don't know.").build());
        assertThat(missed.get(RETRIEVE_ANSWER_MATCH)).isLessThan(AnswerSentences.ANSWERS);
        assertThat(missed.get(GENERATE_ANSWER_FOUND)).isNull(); // a refusal takes nothing from anywhere
    }

    @Test
    void shouldSayWhenAKnownPassageTheRunWasNotHandedMatchesTheQuestionBetter() {
        Passage better = CASH_2023.withRank(1);
        Run missed = healthy().retrieved(REVENUE_2022, WEATHER).reranked(REVENUE_2022, WEATHER)
                .answer("I don't know.").build()
                .withKnownPassages(new KnownPassages(40, 0.3, List.of(new Passage(better.id(), better.text(), 0.9, 1))));

        FeatureVector v = check(missed);

        assertThat(v.get(RETRIEVE_WEIGHTED_MATCH)).isEqualTo(0.3);
        assertThat(v.get(RETRIEVE_UNRETURNED_MATCH_GAIN)).isCloseTo(0.6, within(1e-9));
        assertThat(v.get(RETRIEVE_UNRETURNED_ANSWER_GAIN)).isGreaterThan(0.0);
        assertThat(findings).filteredOn(f -> f.fact().kind() == FactKind.BETTER_PASSAGE_KNOWN).singleElement()
                .satisfies(f -> {
                    assertThat(f.fact().passageIds()).containsExactly(CASH_2023.id());
                    assertThat(f.text()).contains(CASH_2023.id(), "90%", "30%");
                });
    }

    @Test
    void shouldLeaveTheSecondOpinionOutWhenNothingIsKnownOrNothingKnownIsBetter() {
        FeatureVector unknown = check(healthy().build());
        assertThat(unknown.get(RETRIEVE_UNRETURNED_MATCH_GAIN)).isNull();
        assertThat(unknown.get(RETRIEVE_WEIGHTED_MATCH)).isNull();

        FeatureVector notBetter = check(healthy().build().withKnownPassages(new KnownPassages(40, 0.9,
                List.of(new Passage(WEATHER.id(), WEATHER.text(), 0.1, 1)))));
        assertThat(notBetter.get(RETRIEVE_UNRETURNED_MATCH_GAIN)).isCloseTo(-0.8, within(1e-9));
        assertThat(findings).noneMatch(f -> f.fact().kind() == FactKind.BETTER_PASSAGE_KNOWN);
    }

    @Test
    void shouldSayWhenTheAnsweringPassageSitsInTheMiddleOfALongPrompt() {
        Run buried = healthy().noRerank().retrieved(REVENUE_2022, WEATHER, CASH_2023, CAPEX_2023)
                .context(REVENUE_2022, CASH_2023, WEATHER, CAPEX_2023).assembledWhole().build();

        FeatureVector v = check(buried);

        assertThat(v.get(ASSEMBLE_ANSWER_DEPTH)).isGreaterThan(0.5);
        assertThat(findingTexts(Stage.ASSEMBLE)).anyMatch(t -> t.contains("passage 2 of the 4")
                && t.contains(CASH_2023.id()) && t.contains("middle"));
    }

    @Test
    void shouldNotCallAPassageAtAnEndOrInAShortPromptBuried() {
        check(healthy().noRerank().retrieved(CASH_2023, REVENUE_2022, WEATHER, CAPEX_2023)
                .context(CASH_2023, REVENUE_2022, WEATHER, CAPEX_2023).assembledWhole().build());
        check(healthy().noRerank().retrieved(REVENUE_2022, CASH_2023, WEATHER)
                .context(REVENUE_2022, CASH_2023, WEATHER).assembledWhole().build());

        assertThat(findingTexts(Stage.ASSEMBLE)).noneMatch(t -> t.contains("middle"));
    }

    @Test
    void shouldSayWhichPassageTheBudgetCutBeforeItsAnsweringSentenceAndWhoHandedItOn() {
        check(healthy().budgetCutBeforeTheAnswer().build());

        assertThat(findingTexts(Stage.ASSEMBLE)).containsExactly("passage 1 of 2 handed on by the reranker (doc-7#1)"
                + " holds the answer; context assembly cut it after " + BUDGET_KEPT_CHARS + " of its "
                + CASH_AFTER_PUMPS.text().length() + " characters, before the sentence that answers the question");
    }

    @Test
    void shouldReadASentenceTheBudgetCutInsideAsLostWholeNotAsAnsweredByItsKeptHalf() {
        int cash = CASH_2023.text().length();
        int revenue = REVENUE_2022.text().length();
        int keep = "Acme Corp reported operating cash flow".length();
        Run cutInside = healthy().reranked(CASH_2023, REVENUE_2022).context(new Passage(CASH_2023.id(),
                CASH_2023.text().substring(0, keep), CASH_2023.score(), 1), REVENUE_2022).assembled(
                new PassageFate(CASH_2023.id(), 1, PassageFate.Fate.CUT, 1, cash, keep),
                new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.WHOLE, 2, revenue, revenue))
                .answer("I don't know.").build();

        FeatureVector v = check(cutInside);

        // the kept half restates the question's words; the answer went with the other half
        assertThat(v.get(ASSEMBLE_LOST_ANSWER_MATCH)).isCloseTo(1.0, within(1e-9));
        assertThat(v.get(ASSEMBLE_LOST_ANSWER_GAP)).isGreaterThanOrEqualTo(0.5);
        assertThat(findingTexts(Stage.ASSEMBLE)).anyMatch(t -> t.contains("cut it after " + keep + " of its " + cash
                + " characters, inside the sentence that answers the question"));
    }

    @Test
    void shouldWeighWhatAssemblyLostByTheRankItWasHandedOnAt() {
        int revenue = REVENUE_2022.text().length();
        int cash = CASH_2023.text().length();
        Run lastDropped = healthy().reranked(CASH_2023, REVENUE_2022).context(CASH_2023).assembled(
                new PassageFate(CASH_2023.id(), 1, PassageFate.Fate.WHOLE, 1, cash, cash),
                new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.DROPPED, null, revenue, 0)).build();
        Run firstHalfCut = healthy().reranked(CASH_2023, REVENUE_2022).context(new Passage(CASH_2023.id(), CASH_2023.text().substring(0, cash / 2),
                CASH_2023.score(), 1), REVENUE_2022).assembled(
                new PassageFate(CASH_2023.id(), 1, PassageFate.Fate.CUT, 2, cash, cash / 2),
                new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.WHOLE, 1, revenue, revenue)).build();

        assertThat(check(lastDropped).get(ASSEMBLE_LOST_RANK_WEIGHT)).isEqualTo(0.5);
        assertThat(check(firstHalfCut).get(ASSEMBLE_LOST_RANK_WEIGHT)).isCloseTo(0.5, within(0.01));
        assertThat(check(healthy().budgetCutBeforeTheAnswer().build()).get(ASSEMBLE_LOST_RANK_WEIGHT))
                .as("the first passage handed on lost most of its text").isGreaterThan(0.5);
        assertThat(check(healthy().assembledWhole().build()).get(ASSEMBLE_LOST_RANK_WEIGHT)).isZero();
    }
    /**
     * A contextual compressor (LangChain's LLMChainExtractor) kept a sentence of each passage: where it kept the
     * company's pumps and left out the cash flow, assembly lost the answer to the compressor; where it kept the cash
     * flow, the extract answers and nothing is missing.
     */
    @Test
    void shouldSayACompressorsExtractsLeftOutTheAnsweringSentenceAndNotWhenTheyKeptIt() {
        String founded = "Acme Corp was founded in Cleveland in 1950.";
        String answering = "Acme Corp reported operating cash flow of $4.1 billion in 2023.";
        Passage compressed = new Passage("doc-7#5", founded + " " + PUMPS + " " + answering, 0.83, 1);
        int chars = compressed.text().length();
        int revenue = REVENUE_2022.text().length();

        FeatureVector missed = check(healthy().reranked(compressed, REVENUE_2022)
                .context(new Passage(compressed.id(), PUMPS, compressed.score(), 1), REVENUE_2022).assembled(
                        new PassageFate(compressed.id(), 1, PassageFate.Fate.EXTRACTED, 1, chars, PUMPS.length()),
                        new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.WHOLE, 2, revenue, revenue))
                .answer("I don't know.").build());

        assertThat(missed.get(ASSEMBLE_CUT)).isEqualTo(1.0);
        assertThat(missed.get(ASSEMBLE_EXTRACTED)).isEqualTo(1.0);
        assertThat(missed.get(ASSEMBLE_DROPPED)).isZero();
        assertThat(missed.get(ASSEMBLE_LOST_ANSWER_GAP)).isGreaterThanOrEqualTo(0.5);
        assertThat(findingTexts(Stage.ASSEMBLE)).containsExactly("passage 1 of 2 handed on by the reranker (doc-7#5)"
                + " holds the answer; context assembly kept only extracts of it (" + PUMPS.length() + " of its "
                + chars + " characters), without the sentence that answers the question");

        findings.clear();
        FeatureVector kept = check(healthy().reranked(compressed, REVENUE_2022)
                .context(new Passage(compressed.id(), answering, compressed.score(), 1), REVENUE_2022).assembled(
                        new PassageFate(compressed.id(), 1, PassageFate.Fate.EXTRACTED, 1, chars, answering.length()),
                        new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.WHOLE, 2, revenue, revenue))
                .build());

        assertThat(kept.get(ASSEMBLE_LOST_ANSWER_GAP)).isNegative();
        assertThat(findings).noneMatch(f -> f.fact().kind() == FactKind.MISSING_ANSWER);
        assertThat(findingTexts(Stage.ASSEMBLE)).containsExactly("context assembly cut 1 (1 to extracts) and dropped"
                + " 0 of the 2 passages handed on");
    }
}

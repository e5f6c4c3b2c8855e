package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NearTextTest {

    private static final String REWRITE = "normans conquest of england 1066 battle of hastings";
    private static final String QUESTION = "in what year did the normans win the battle of hastings?";

    private static double score(String embedded, String source) {
        return NearText.score(Texts.norm(embedded), Texts.norm(source));
    }

    @Test
    void shouldScoreTheSameWordsOne() {
        assertThat(score(REWRITE, REWRITE)).isEqualTo(1.0);
    }

    @Test
    void shouldTolerateTyposOfOneOrTwoEditsInAWordOrTwo() {
        // keyboard neighbours (n→m, a→s), a dropped letter, a swapped pair
        assertThat(score("mormans conquest of englsnd 1066 battle of hastings", REWRITE)).isGreaterThan(0.95);
        assertThat(score("normans conqest of england 1066 battel of hastings", REWRITE)).isGreaterThan(0.95);
        // a swapped pair in a short word is two edits
        assertThat(score("what was the chinse naem for the central secretariat?",
                "What was the Chinese name for the Central Secretariat?")).isGreaterThan(0.95);
    }

    @Test
    void shouldTolerateACutAtATokenBudgetEvenMidWord() {
        assertThat(score("normans conquest of engl", REWRITE)).isGreaterThan(NearText.FLOOR);
        assertThat(score("normans conquest", REWRITE)).isGreaterThan(NearText.FLOOR);
        assertThat(score("in what year did the normans", QUESTION)).isGreaterThan(NearText.FLOOR);
        // cut before the first content word: only the beginning of the question is left to link by
        assertThat(score("who is", "Who is the President of Egypt?")).isGreaterThan(NearText.FLOOR);
        assertThat(score("what is not a", "What is not a symptom of type I hypersensitivity?"))
                .isGreaterThan(NearText.FLOOR);
        // a character budget that left one letter of the last word (a LangChain.js client's recording)
        assertThat(score("decade injectors w", "decade injectors widely used steam engines"))
                .isGreaterThan(NearText.FLOOR);
        // one letter is read only at its own place, after the source's beginning
        assertThat(score("decade injectors w", "decade injectors widely used steam engines"))
                .isGreaterThan(score("injectors decade w", "decade injectors widely used steam engines"));
    }

    @Test
    void shouldTolerateDroppedAndAddedWords() {
        assertThat(score("normans conquest of england battle of hastings", REWRITE)).isGreaterThan(0.85);
        assertThat(score("normans conquest of england 1066 battle of hastings oneida scouts acted become", REWRITE))
                .isGreaterThan(NearText.FLOOR);
        assertThat(score("egyptian elements normans conquest of england 1066 battle of hastings", REWRITE))
                .isGreaterThan(NearText.FLOOR);
    }

    @Test
    void shouldRecogniseTheQuestionInsideTheWrongFieldEmbedded() {
        // LangChain's condense step embedded with its chat history, follow-up question last
        String history = "Chat History:\nHuman: who ruled normandy in the 10th century?\nAssistant: Rollo.\n"
                + "Follow Up Input: " + QUESTION;
        assertThat(score(history, QUESTION)).isEqualTo(NearText.WRAPPED_AT_END);
        // the rewrite prompt filled in and embedded instead of its output
        String prompt = "Rewrite the question as a search query.\nQuestion: " + QUESTION + "\nQuery:";
        assertThat(score(prompt, QUESTION)).isGreaterThanOrEqualTo(NearText.WRAPPED);
        // the earlier question in that history is there too, but not last: the run that asked last is the better claim
        assertThat(score(history, "who ruled normandy in the 10th century?")).isLessThan(NearText.WRAPPED_AT_END);
        // one content word inside a long text is no evidence of anything
        assertThat(score("a long passage about hastings and its history of fishing", "hastings?"))
                .isLessThan(NearText.FLOOR);
    }

    @Test
    void shouldSeeThroughInstructionPrefixes() {
        for (String prefix : new String[] {"query: ", "search_query: ",
            "Represent this sentence for searching relevant passages: ",
            "Represent the Wikipedia question for retrieving supporting documents: "}) {
            assertThat(score(prefix + REWRITE, REWRITE)).as(prefix).isEqualTo(1.0);
            assertThat(score(prefix + QUESTION, QUESTION)).as(prefix).isEqualTo(1.0);
        }
        // two stacked, the framework's and the model's
        assertThat(score("query: search_query: " + REWRITE, REWRITE)).isEqualTo(1.0);
        assertThat(score("query: search_query: normans conquest of engl", REWRITE)).isGreaterThan(NearText.FLOOR);
        // a prefix and a fault at once
        assertThat(score("query: normans conquest of engl", REWRITE)).isGreaterThan(NearText.FLOOR);
    }

    @Test
    void shouldKeepUnrelatedTextsOfOnePipelineBelowTheFloor() {
        assertThat(score("what is the capital of france?", QUESTION)).isLessThan(NearText.FLOOR);
        assertThat(score("amazon rainforest deforestation rate", REWRITE)).isZero();
        // function words alone link nothing
        assertThat(score("is the", "what is the tallest mountain of the alps?")).isZero();
        assertThat(score("what", "what is the tallest mountain of the alps?")).isZero();
        assertThat(score("what was the name of the king", "what was the role of the church in the war?"))
                .isLessThan(NearText.FLOOR);
        // one shared name among many other words is not the same text
        assertThat(score("normans settled sicily under roger guiscard southern italy", REWRITE))
                .isLessThan(NearText.FLOOR);
    }

    @Test
    void shouldTolerateWordsGarbledBySeveralSlips() {
        // keyboard slips on 40-50 % of the words (seen from the simulator's embed.typo at its heaviest)
        assertThat(score("When did Zhu p7blidh 'Jze Mirror of the Four Unknowns'?",
                "When did Zhu publish 'Jade Mirror of the Four Unknowns'?")).isGreaterThan(NearText.FLOOR);
        assertThat(score("What mediicne can lead to a deecilne in fungi?",
                "What medicine can lead to a decline in fungi?")).isGreaterThan(NearText.FLOOR);
        assertThat(score("What liberal succeeded Joeph Willard as prseiednt?",
                "What liberal succeeded Joseph Willard as president?")).isGreaterThan(NearText.FLOOR);
        // ... but a short text finds no garbled partner without words matched around it
        assertThat(score("jze mirror", "Who wrote the Jade Mirror?")).isLessThan(NearText.FLOOR);
    }

    @Test
    void shouldNotTakeAQuestionThatDiffersByItsEntityForADamagedOne() {
        // templated questions: the same words around another name are another question
        assertThat(score("What is the fact about topic beta?", "What is the fact about topic alpha?"))
                .isLessThan(NearText.FLOOR);
        assertThat(score("What is the fact about topic bravo?", "What is the fact about topic beta?"))
                .isLessThan(NearText.FLOOR);
        assertThat(score("when did the normans conquer sicily", "when did the normans conquer england"))
                .isLessThan(NearText.FLOOR);
    }

    @Test
    void shouldScoreTheRightSourceHigherThanASimilarOne() {
        String typo = "normans conqeust of england 1066 battle of hastings";
        assertThat(score(typo, REWRITE)).isGreaterThan(score(typo, "normans conquest of wales 1081"));
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Names and numbers an answer wrote over in the context sentence it copies, and the answers that write nothing over:
 * exact copies, paraphrases, reordered dates, another form of one number, an opening or a citation of the answer's
 * own, and answers that only share small words with a sentence.
 */
class SwappedFactsTest {

    private static final Passage OCCUPATION = new Passage("Warsaw-9#0", "Warsaw was occupied by Germany from 4 August"
            + " 1915 until November 1918. The Allied Armistice terms required the withdrawal of German troops.", null, 1);
    private static final Passage MERMAID = new Passage("Warsaw-46#1", "The mermaid swam on. She stopped to rest on a"
            + " sandy beach by the village of Warszowa, where fishermen came to admire her beauty and listen to her"
            + " beautiful voice. A greedy merchant also heard her songs.", null, 1);
    private static final Passage RANKINE = new Passage("Steam_engine-23#1", "By condensing the fluid, the work required"
            + " by the pump consumes only 1% to 3% of the turbine power and contributes to a much higher efficiency for"
            + " a real cycle. The benefit of this is lost somewhat due to the lower heat addition temperature.", null, 2);
    private static final Passage LOCOMOTIVE = new Passage("Steam_engine-12#0", "The first full-scale working railway"
            + " steam locomotive was built by Richard Trevithick in the United Kingdom and, on 21 February 1804, the"
            + " world's first railway journey took place.", null, 1);
    private static final Passage EXCHANGE = new Passage("Warsaw-30#0", "Warsaw's first stock exchange was established"
            + " in 1817 and continued trading until World War II. It was re-established in April 1991, following the"
            + " end of the post-war communist control of the country.", null, 1);

    private static List<String> swaps(String question, String answer, Passage... context) {
        List<Passage> passages = List.of(context);
        TextIndex index = TextIndex.ofPassages(passages.stream().map(Passage::text).toList());
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        List<String> sentences = AnswerSentences.sentences(answer);
        return SwappedFacts.in(sentences, answers.locateEach(sentences, answers.locate(answer, passages), passages),
                        index).stream()
                .map(s -> s.copied() + "->" + s.written() + "@" + s.passage().id()).toList();
    }

    @Test
    void aNumberWrittenOverInACopiedSentence() {
        assertThat(swaps("How long was Warsaw occupied by Germany?",
                "Warsaw was occupied by Germany from 2 August 1915 until November 1918.", OCCUPATION))
                .containsExactly("4->2@Warsaw-9#0");
    }

    @Test
    void aNameWrittenOverInACopiedSentence() {
        assertThat(swaps("A mermaid stopped to rest on the sandy beach by what village?", "She stopped to rest on a"
                + " sandy beach by the village of West, where fishermen came to admire her beauty.", OCCUPATION,
                MERMAID)).containsExactly("Warszowa->West@Warsaw-46#1");
    }

    @Test
    void anOpeningOfTheAnswersOwnIsAllowed() {
        assertThat(swaps("How much turbine power is consumed by the pump while the work fluid is condensed?",
                "The passages suggest that by condensing the fluid, the work required by the pump consumes only 4% to"
                        + " 3% of the turbine power.", RANKINE)).containsExactly("1->4@Steam_engine-23#1");
    }

    @Test
    void eachSentenceOfTheAnswerIsReadAgainstItsOwnSource() {
        assertThat(swaps("When was Warsaw's first stock exchange established?", "Warsaw's first stock exchange was"
                + " established in 2000 and continued trading until World War II. It was re-established in April"
                + " 1991, following the end of the post-war communist control of the country.", EXCHANGE))
                .containsExactly("1817->2000@Warsaw-30#0");
    }

    @Test
    void aCopyThatStopsOnItsSwapCountsOnlyWhenTheWordIsNowhereInTheContext() {
        String question = "In what country was a full-scale working railway steam locomotive first invented?";
        assertThat(swaps(question, "The United Wales.", LOCOMOTIVE)).containsExactly("Kingdom->Wales@Steam_engine-12#0");
        Passage wales = new Passage("Steam_engine-13#0", "Trevithick's engine ran in Wales.", null, 2);
        assertThat(swaps(question, "The United Wales.", LOCOMOTIVE, wales)).isEmpty();
    }

    @Test
    void aSwapAtTheEndOfBothSentencesNeedsNoWordMissingFromTheContext() {
        Passage money = new Passage("Yuan_dynasty-23#0", "One of the more notable applications of printing technology"
                + " was the chao, the paper money of the Yuan. Bolad was a minister of the court.", null, 1);
        assertThat(swaps("What was the paper money of the Yuan called?", "One of the more notable applications of"
                + " printing technology was the chao, the paper money of the Bolad.", money))
                .containsExactly("Yuan->Bolad@Yuan_dynasty-23#0");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // copied whole, with an opening and a citation of its own
        "Warsaw was occupied by Germany from 4 August 1915 until November 1918.",
        "According to the documents, Warsaw was occupied by Germany from 4 August 1915 until November 1918 [1].",
        // the date written another way round, and in words
        "Warsaw was occupied by Germany from August 4, 1915 until November 1918.",
        "Germany occupied Warsaw from the fourth of August 1915 until November 1918.",
        // a paraphrase: more than two words of its own
        "German forces held the city between August 1915 and late 1918, when the armistice came.",
        // only small words shared with the sentence, and a name the context never gives
        "It was Berlin.",
    })
    void answersThatWriteNothingOver(String answer) {
        assertThat(swaps("How long was Warsaw occupied by Germany?", answer, OCCUPATION)).isEmpty();
    }

    @Test
    void oneNumberInAnotherFormIsNoSwap() {
        Passage p = new Passage("p", "The library holds 4,100 maps and 1.2 million books in its collections.", null, 1);
        assertThat(swaps("How many maps does the library hold?", "The library holds 4100 maps and 1.2 million books.",
                p)).isEmpty();
    }

    @Test
    void aSentencesFirstWordIsNoName() {
        Passage p = new Passage("p", "The reform began in 1905. However, the court ruled against the reform in 1907.",
                null, 1);
        assertThat(swaps("What did the court rule?", "Eventually, the court ruled against the reform in 1907.", p))
                .isEmpty();
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Refusals as instruction-tuned models word them in RAG prompts, and answers that only look like one. */
class RefusalsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "I don't know.",
        "I don’t know based on the provided context.",
        "Sorry, I could not find that in the documents.",
        "I'm unable to determine the answer from these passages.",
        "I do not have enough information to answer that.",
        "There isn't enough information in the context to say.",
        "The provided context does not mention when the treaty was signed.",
        "The retrieved documents don't specify the population of the city.",
        "These sources unfortunately do not address the question.",
        "The answer is not stated in the passages.",
        "This cannot be determined from the given excerpts.",
        "There is no relevant information about the ceremony.",
        // the source as a negated quantifier, hedged verbs, a source that lacks it, an answer not possible
        "None of the retrieved passages mention the founding date.",
        "Neither of the sources says who built the bridge.",
        "No passage in the context addresses the question.",
        "Nothing in the provided documents answers that.",
        "The context does not appear to contain the date of the battle.",
        "The excerpts lack any detail about his uncle.",
        "That detail is not present in the retrieved passages.",
        "Based on these excerpts, it is not possible to say.",
    })
    void shouldRecogniseARefusal(String answer) {
        assertThat(Refusals.refuses(answer)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "The treaty did not provide funding for the navy.",
        "In 1066 the Normans did not know the terrain, yet they won at Hastings.",
        "Warsaw is the capital of Poland [1].",
        "Context switching was not a problem for early packet networks.",
        "The Yuan dynasty was founded by Kublai Khan in 1271.",
        "She could not be reached for comment, the paper reported.",
        "None of the passengers survived the crash.",
        "No documents from the period survive, so historians rely on the chronicle.",
        "Neither army gave ground until the evening.",
    })
    void shouldNotTakeAnAnswerForARefusal(String answer) {
        assertThat(Refusals.refuses(answer)).isFalse();
    }
}

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
        // as hosted chat models word them when their RAG prompt lacks the answer
        "I don't have information on that.",
        "I don't have access to that information.",
        "I have no way of knowing from these documents.",
        "Unfortunately, the answer is not in the provided documents.",
        "That information isn't in the context.",
        "Answer: Not found in context.",
        "The information needed to answer this question is missing from the context.",
        "Sorry, I can't help with that based on the documents.",
        "Based on the context, I cannot provide an answer.",
        "I cannot provide that information.",
        "No answer can be found in the context.",
        "It's unclear from the context when the engine was built.",
        "The context is unclear about who led the uprising.",
        "The provided documents are silent on this point.",
        "There's nothing about that in the provided context.",
        "There is no indication in the documents of when it was built.",
        "The passages make no reference to the ranking.",
        "The given context doesn't offer any details on the treaty.",
        "The passages don't indicate how many students enrolled.",
        "The context does not explain why the dynasty fell.",
        "The sources provided do not identify the architect.",
        "The text doesn't name the winner.",
        "The context doesn't go into that.",
        "That's not something the context covers.",
        // an agent that searched through a tool says so in terms of its search
        "The search didn't turn up anything that answers this.",
        "I searched the knowledge base but found nothing on that.",
        "My search of the knowledge base returned no results for that.",
        "The search came back empty for that question.",
        "I searched twice and got no relevant passages.",
        "I wasn't able to find anything about the treaty.",
        "Nothing relevant came up in my search.",
        "Our searches did not find a founding date.",
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
        // the new forms' words in answers: a subject that is no source, a source word in a name
        "Scientists are not sure whether the comet will return.",
        "It is unclear whether the king survived; the chronicle says he fled.",
        "He had no access to the archives until 1920.",
        "The report does not identify the cause of the fire, but the city rebuilt within a year.",
        "He couldn't help noticing the difference.",
        "There was nothing about the plan that pleased him.",
        "The law offers no protection to tenants.",
        "The treaty makes no reference to the navy.",
        "The missing piece was found in the attic.",
        // a search that is part of the answer, not the agent's
        "The search for survivors found nothing until dawn.",
        "The search engine returned no results for users in China during the ban.",
        "Their search of the archives did not find the letter until 1950.",
        "A search of the harbour turned up no wreckage, so the ship was presumed lost.",
    })
    void shouldNotTakeAnAnswerForARefusal(String answer) {
        assertThat(Refusals.refuses(answer)).isFalse();
    }
}

package io.raglog.calls;

import static io.raglog.calls.Prompts.CAPEX;
import static io.raglog.calls.Prompts.DIVIDEND;
import static io.raglog.calls.Prompts.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The later steps of an answer synthesised in several calls, read from the refine prompts frameworks send. */
class SynthesisStepsTest {

    private static final String EXISTING = "Acme's operating cash flow was $4.2 billion in 2023.";

    private static ChatDetail read(List<ChatMessage> messages) {
        return ChatDetails.of("test", "gpt-4o-mini", messages, "Acme's operating cash flow was $4.2 billion.", null,
                false);
    }

    @Test
    void shouldReadLlamaIndexsRefineWithItsQuestionPassagesAndTheAnswerItRefines() {
        ChatDetail d = read(Prompts.user("The original query is as follows: " + QUESTION + "\nWe have provided an "
                + "existing answer: " + EXISTING + "\nWe have the opportunity to refine the existing answer (only if "
                + "needed) with some more context below.\n------------\n" + CAPEX + "\n\n" + DIVIDEND
                + "\n------------\nGiven the new context, refine the original answer to better answer the query. If "
                + "the context isn't useful, return the original answer.\nRefined Answer: "));

        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CAPEX, DIVIDEND);
        assertThat(SynthesisSteps.priorAnswer(d)).isEqualTo(EXISTING);
    }

    @Test
    void shouldReadLlamaIndexsChatRefineWhoseContextIsLabelledNewContext() {
        ChatDetail d = read(Prompts.user("You are an expert Q&A system that strictly operates in two modes when "
                + "refining existing answers:\n1. **Rewrite** an original answer using the new context.\n2. **Repeat** "
                + "the original answer if the new context isn't useful.\nNever reference the original answer or "
                + "context directly in your answer.\nWhen in doubt, just repeat the original answer.\nNew Context: "
                + CAPEX + "\n\n" + DIVIDEND + "\nQuery: " + QUESTION + "\nOriginal Answer: " + EXISTING
                + "\nNew Answer: "));

        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CAPEX, DIVIDEND);
        assertThat(SynthesisSteps.priorAnswer(d)).isEqualTo(EXISTING);
    }

    @Test
    void shouldReadAnAnswerToRefineThatIsAListWhole() {
        String list = "Two figures:\n\n- $4.2 billion in 2023\n- $3.1 billion in 2022";
        ChatDetail d = read(Prompts.user("The original query is as follows: " + QUESTION + "\nWe have provided an "
                + "existing answer: " + list + "\nWe have the opportunity to refine the existing answer (only if "
                + "needed) with some more context below.\n------------\n" + CAPEX + "\n------------\nGiven the new "
                + "context, refine the original answer to better answer the query.\nRefined Answer: "));

        assertThat(SynthesisSteps.priorAnswer(d)).isEqualTo(list);
    }

    @Test
    void shouldReadTheQuestionOfLangChainsRefineChainsFirstStep() {
        ChatDetail d = read(Prompts.user("Context information is below. \n------------\n" + CAPEX + "\n------------\n"
                + "Given the context information and not prior knowledge, answer the question: " + QUESTION + "\n"));

        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CAPEX);
        assertThat(SynthesisSteps.priorAnswer(d)).isNull();
    }

    @Test
    void shouldNotTakeAConversationsPreviousAnswerForAStepToRefine() {
        ChatDetail d = read(Prompts.user("Answer the question using the context.\nPrevious answer: " + EXISTING
                + "\n\nContext:\n" + CAPEX + "\n\nQuestion: " + QUESTION + "\nAnswer:"));

        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(SynthesisSteps.priorAnswer(d)).isNull();
    }
}

package io.raglog.calls;

import static io.raglog.calls.Calls.classified;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * A DSPy RAG program's calls as its chat adapter writes them (dspy.ChainOfThought("context, question -> answer") and
 * a query writer, "question -> search_query"): read as the generator and the rewriter they are.
 */
class DspyFieldsTest {

    private static final String CASH = "Net cash provided by operating activities was $4.2 billion in fiscal 2023.";
    private static final String CAPEX = "Capital expenditures totaled $1.1 billion in 2023.";
    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    private static final String RAG_SYSTEM = """
            Your input fields are:
            1. `context` (str)
            2. `question` (str)
            Your output fields are:
            1. `reasoning` (str)
            2. `answer` (str)
            All interactions will be structured in the following way, with the appropriate values filled in.

            [[ ## context ## ]]
            {context}

            [[ ## question ## ]]
            {question}

            [[ ## reasoning ## ]]
            {reasoning}

            [[ ## answer ## ]]
            {answer}

            [[ ## completed ## ]]
            In adhering to this structure, your objective is:\s
                    Answer questions with short factoid answers.""";

    @Test
    void shouldReadADspyChainOfThoughtAsAGeneratorWithItsPassagesAndItsAnswerField() {
        String user = "[[ ## context ## ]]\n[1] «" + CASH + "»\n[2] «" + CAPEX + "»\n\n[[ ## question ## ]]\n" + QUESTION
                + "\n\nRespond with the corresponding output fields, starting with the field `[[ ## reasoning ## ]]`, "
                + "then `[[ ## answer ## ]]`, and then ending with the marker for `[[ ## completed ## ]]`.";
        String reply = "[[ ## reasoning ## ]]\nThe context says operating activities provided $4.2 billion in fiscal "
                + "2023, and capital expenditures were $1.1 billion.\n\n[[ ## answer ## ]]\n$4.2 billion\n\n"
                + "[[ ## completed ## ]]";

        ClassifiedCall call = classified(chat(RAG_SYSTEM, user, reply));

        assertThat(call.stage()).isEqualTo(Stage.GENERATE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CASH, CAPEX);
        assertThat(d.output()).isEqualTo("$4.2 billion");
        assertThat(d.messages().get(0).content()).doesNotContain("{context}", "[[ ##")
                .contains("Answer questions with short factoid answers.");
    }

    @Test
    void shouldReadADspyQueryWriterAsARewriteOfTheQuestion() {
        String system = RAG_SYSTEM.replace("1. `context` (str)\n2. `question` (str)", "1. `question` (str)")
                .replace("2. `answer` (str)", "2. `search_query` (str)")
                .replace("[[ ## context ## ]]\n{context}\n\n", "")
                .replace("[[ ## answer ## ]]\n{answer}", "[[ ## search_query ## ]]\n{search_query}")
                .replace("Answer questions with short factoid answers.", "Write a simple search query that will help "
                        + "answer a complex question.");
        String user = "[[ ## question ## ]]\n" + QUESTION + "\n\nRespond with the corresponding output fields, "
                + "starting with the field `[[ ## reasoning ## ]]`, then `[[ ## search_query ## ]]`, and then ending "
                + "with the marker for `[[ ## completed ## ]]`.";
        String reply = "[[ ## reasoning ## ]]\nThe question asks for one figure of one year.\n\n"
                + "[[ ## search_query ## ]]\nAcme Corp operating cash flow 2023\n\n[[ ## completed ## ]]";

        ClassifiedCall call = classified(chat(system, user, reply));

        assertThat(call.stage()).isEqualTo(Stage.REWRITE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.output()).isEqualTo("Acme Corp operating cash flow 2023");
    }

    @Test
    void shouldLeaveEveryOtherCallAsItIs() {
        String reply = "Operating cash flow was $4.2 billion [[ ## not a field";

        assertThat(DspyFields.output(reply)).isEqualTo(reply);
        assertThat(DspyFields.used(java.util.List.of(new ChatMessage("user", "Context:\n" + CASH)))).isFalse();
    }

    private static io.raglog.schemas.CallEvent chat(String system, String user, String reply) {
        ObjectNode request = Json.MAPPER.createObjectNode().put("model", "gpt-4o-mini");
        ArrayNode messages = request.putArray("messages");
        messages.addObject().put("role", "system").put("content", system);
        messages.addObject().put("role", "user").put("content", user);
        ObjectNode response = Json.MAPPER.createObjectNode().put("model", "gpt-4o-mini");
        response.putArray("choices").addObject().put("index", 0).putObject("message").put("role", "assistant")
                .put("content", reply);
        return Calls.call("POST", "https://api.openai.com/v1/chat/completions", request, 200, response);
    }
}

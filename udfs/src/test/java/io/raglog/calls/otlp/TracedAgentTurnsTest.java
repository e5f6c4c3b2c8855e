package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.ClassifiedSpans.classified;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.JsonQueries;
import io.raglog.schemas.Stage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An agent traced rather than recorded: its model's turn that calls a search tool, in each convention that names a
 * tool call its own way (the GenAI conventions' {@code tool_call} parts, OpenInference's {@code message.tool_calls},
 * OpenLLMetry's {@code gen_ai.completion.0.tool_calls}). Read as its text (none), such a turn was a generator with an
 * empty answer, and closed its run before the agent had searched; it is the run's rewrite, as a recorded one is. The
 * turn after the search carries the tool's result, the passages it answers from.
 */
class TracedAgentTurnsTest {

    private static final String QUESTION = "What was Acme cash flow in 2023?";
    private static final String QUERY = "Acme cash flow 2023";
    private static final String FOUND = "Net cash provided by operating activities was $4.2 billion in fiscal 2023.";

    @Test
    void shouldReadAGenAiToolCallPartAsTheRewriteAndAToolCallResponseAsItsPassages() {
        ClassifiedCall search = classified(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini",
                 "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "%s"}]}],
                 "gen_ai.output.messages": [{"role": "assistant", "finish_reason": "tool_call", "parts": [
                   {"type": "text", "content": "I will search the filings."},
                   {"type": "tool_call", "id": "c1", "name": "search_kb", "arguments": {"query": "%s"}}]}]}"""
                .formatted(QUESTION, QUERY)));
        ClassifiedCall answer = classified(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini",
                 "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "%s"}]},
                   {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "search_kb",
                     "arguments": {"query": "%s"}}]},
                   {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "%s"}]}],
                 "gen_ai.output.messages": [{"role": "assistant", "finish_reason": "stop", "parts": [
                   {"type": "text", "content": "It was $4.2 billion."}]}]}""".formatted(QUESTION, QUERY, FOUND)));

        assertSearchThenAnswer(search, answer);
    }

    @Test
    void shouldReadOpenInferenceToolCallsAsTheRewrite() {
        ClassifiedCall search = classified(TestSpans.call("""
                {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
                 "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "%s",
                 "llm.output_messages.0.message.role": "assistant",
                 "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
                 "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "search_kb",
                 "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
                   "{\\"query\\": \\"%s\\"}"}""".formatted(QUESTION, QUERY)));
        ClassifiedCall answer = classified(TestSpans.call("""
                {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
                 "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "%s",
                 "llm.input_messages.1.message.role": "assistant",
                 "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "search_kb",
                 "llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments":
                   "{\\"query\\": \\"%s\\"}",
                 "llm.input_messages.2.message.role": "tool", "llm.input_messages.2.message.content": "%s",
                 "llm.output_messages.0.message.role": "assistant",
                 "llm.output_messages.0.message.content": "It was $4.2 billion."}"""
                .formatted(QUESTION, QUERY, FOUND)));

        assertSearchThenAnswer(search, answer);
    }

    @Test
    void shouldReadOpenLlmetrysIndexedToolCallsAsTheRewrite() {
        ClassifiedCall search = classified(TestSpans.call("""
                {"llm.request.type": "chat", "gen_ai.request.model": "gpt-4o-mini",
                 "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "%s",
                 "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls",
                 "gen_ai.completion.0.tool_calls.0.id": "c1", "gen_ai.completion.0.tool_calls.0.name": "search_kb",
                 "gen_ai.completion.0.tool_calls.0.arguments": "{\\"query\\": \\"%s\\"}"}"""
                .formatted(QUESTION, QUERY)));
        ClassifiedCall answer = classified(TestSpans.call("""
                {"llm.request.type": "chat", "gen_ai.request.model": "gpt-4o-mini",
                 "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "%s",
                 "gen_ai.prompt.1.role": "assistant", "gen_ai.prompt.1.tool_calls.0.name": "search_kb",
                 "gen_ai.prompt.1.tool_calls.0.arguments": "{\\"query\\": \\"%s\\"}",
                 "gen_ai.prompt.2.role": "tool", "gen_ai.prompt.2.content": "%s",
                 "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "It was $4.2 billion."}"""
                .formatted(QUESTION, QUERY, FOUND)));

        assertSearchThenAnswer(search, answer);
    }

    /** Langfuse's generations hold the messages as the SDK serialised them: OpenAI's, or LangChain's own. */
    @Test
    void shouldReadToolCallsInLangfusesSerialisedMessagesAsTheRewrite() {
        ClassifiedCall search = classified(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.model.name": "gpt-4o-mini",
                 "langfuse.observation.input": "[{\\"role\\": \\"user\\", \\"content\\": \\"%s\\"}]",
                 "langfuse.observation.output": "{\\"role\\": \\"assistant\\", \\"content\\": null, \\"tool_calls\\":\
                 [{\\"id\\": \\"c1\\", \\"type\\": \\"function\\", \\"function\\": {\\"name\\": \\"search_kb\\",\
                 \\"arguments\\": \\"{\\\\\\"query\\\\\\": \\\\\\"%s\\\\\\"}\\"}}]}"}""".formatted(QUESTION, QUERY)));
        ClassifiedCall answer = classified(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.model.name": "gpt-4o-mini",
                 "langfuse.observation.input": "[{\\"type\\": \\"human\\", \\"content\\": \\"%s\\"},\
                 {\\"type\\": \\"ai\\", \\"content\\": \\"\\", \\"tool_calls\\": [{\\"name\\": \\"search_kb\\",\
                 \\"args\\": {\\"query\\": \\"%s\\"}, \\"id\\": \\"c1\\"}]},\
                 {\\"type\\": \\"tool\\", \\"content\\": \\"%s\\", \\"tool_call_id\\": \\"c1\\"}]",
                 "langfuse.observation.output": "{\\"role\\": \\"assistant\\",\
                 \\"content\\": \\"It was $4.2 billion.\\"}"}""".formatted(QUESTION, QUERY, FOUND)));

        assertSearchThenAnswer(search, answer);
    }

    private static void assertSearchThenAnswer(ClassifiedCall search, ClassifiedCall answer) {
        ChatDetail asked = (ChatDetail) search.detail();
        assertThat(search.stage()).as("the search turn of %s", asked.adapter()).isEqualTo(Stage.REWRITE);
        assertThat(asked.question()).isEqualTo(QUESTION);
        assertThat(JsonQueries.of(asked.output())).containsExactly(QUERY);

        ChatDetail answered = (ChatDetail) answer.detail();
        assertThat(answer.stage()).isEqualTo(Stage.GENERATE);
        assertThat(answered.question()).isEqualTo(QUESTION);
        // the agent's earlier search, as its conversation carries it: what links the turns of one run
        assertThat(answered.messages()).filteredOn(m -> m.role().equals("assistant"))
                .extracting(m -> JsonQueries.of(m.content())).containsExactly(List.of(QUERY));
        assertThat(answered.contextPassages()).containsExactly(FOUND);
        assertThat(answered.output()).isEqualTo("It was $4.2 billion.");
    }
}

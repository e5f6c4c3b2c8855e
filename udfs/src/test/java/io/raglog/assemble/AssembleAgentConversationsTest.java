package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.Calls;
import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An agent that searches twice before it answers, on each chat API that names a tool call in its own way: each turn
 * sends the conversation so far, the earlier turns' tool calls and the tool's results in it. The two turns that call
 * the search tool are one run's rewriter, the last turn its generator. Read from a conversation whose tool calls were
 * left out (the text beside them kept, or nothing), the second turn showed no search it followed, and began a run of
 * its own.
 */
class AssembleAgentConversationsTest {

    private static final String QUESTION = "What was Acme cash flow in 2023?";
    private static final String FIRST = "Acme cash flow 2023";
    private static final String SECOND = "Acme operating cash flow fourth quarter 2023";
    private static final List<String> FOUND = List.of(
            "Net cash provided by operating activities was $4.2 billion in fiscal 2023, up from $3.1 billion.",
            "Operating cash flow in the fourth quarter of 2023 was $1.3 billion, the highest of the year.");
    private static final String ANSWER = "Acme cash flow in 2023 was $4.2 billion, $1.3 billion of it in the fourth "
            + "quarter.";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly();

    /** One chat API's bodies: a request carrying the conversation so far, a reply calling the tool, a reply in text. */
    enum Api {
        ANTHROPIC("https://api.anthropic.com/v1/messages") {
            @Override
            Object request(List<String> searched) {
                List<Object> messages = new ArrayList<>(List.of(Map.of("role", "user", "content", QUESTION)));
                for (int i = 0; i < searched.size(); i++) {
                    messages.add(Map.of("role", "assistant", "content", List.of(Map.of("type", "text", "text",
                            "I will search the filings."), toolUse(i, searched.get(i)))));
                    messages.add(Map.of("role", "user", "content", List.of(Map.of("type", "tool_result",
                            "tool_use_id", "toolu_" + i, "content", FOUND.get(i)))));
                }
                return Map.of("model", "claude-3-5-haiku-latest", "max_tokens", 512, "messages", messages,
                        "tools", List.of(Map.of("name", "search_kb", "input_schema", Map.of("type", "object"))));
            }

            @Override
            Object toolReply(int turn, String query) {
                return Map.of("type", "message", "role", "assistant", "model", "claude-3-5-haiku-20241022",
                        "content", List.of(toolUse(turn, query)), "stop_reason", "tool_use");
            }

            @Override
            Object textReply(String answer) {
                return Map.of("type", "message", "role", "assistant", "model", "claude-3-5-haiku-20241022",
                        "content", List.of(Map.of("type", "text", "text", answer)), "stop_reason", "end_turn");
            }

            private static Object toolUse(int turn, String query) {
                return Map.of("type", "tool_use", "id", "toolu_" + turn, "name", "search_kb", "input",
                        Map.of("query", query));
            }
        },
        BEDROCK("https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse") {
            @Override
            Object request(List<String> searched) {
                List<Object> messages = new ArrayList<>(List.of(Map.of("role", "user", "content",
                        List.of(Map.of("text", QUESTION)))));
                for (int i = 0; i < searched.size(); i++) {
                    messages.add(Map.of("role", "assistant", "content", List.of(toolUse(i, searched.get(i)))));
                    messages.add(Map.of("role", "user", "content", List.of(Map.of("toolResult", Map.of(
                            "toolUseId", "t" + i, "content", List.of(Map.of("text", FOUND.get(i))))))));
                }
                return Map.of("messages", messages, "toolConfig", Map.of("tools", List.of(Map.of("toolSpec",
                        Map.of("name", "search_kb")))));
            }

            @Override
            Object toolReply(int turn, String query) {
                return Map.of("output", Map.of("message", Map.of("role", "assistant", "content",
                        List.of(toolUse(turn, query)))), "stopReason", "tool_use");
            }

            @Override
            Object textReply(String answer) {
                return Map.of("output", Map.of("message", Map.of("role", "assistant", "content",
                        List.of(Map.of("text", answer)))), "stopReason", "end_turn");
            }

            private static Object toolUse(int turn, String query) {
                return Map.of("toolUse", Map.of("toolUseId", "t" + turn, "name", "search_kb", "input",
                        Map.of("query", query)));
            }
        },
        GEMINI("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent") {
            @Override
            Object request(List<String> searched) {
                List<Object> contents = new ArrayList<>(List.of(Map.of("role", "user", "parts",
                        List.of(Map.of("text", QUESTION)))));
                for (int i = 0; i < searched.size(); i++) {
                    contents.add(Map.of("role", "model", "parts", List.of(functionCall(searched.get(i)))));
                    contents.add(Map.of("role", "user", "parts", List.of(Map.of("functionResponse", Map.of(
                            "name", "search_kb", "response", Map.of("result", FOUND.get(i)))))));
                }
                return Map.of("contents", contents, "tools", List.of(Map.of("functionDeclarations",
                        List.of(Map.of("name", "search_kb")))));
            }

            @Override
            Object toolReply(int turn, String query) {
                return Map.of("candidates", List.of(Map.of("content", Map.of("role", "model", "parts",
                        List.of(functionCall(query))))));
            }

            @Override
            Object textReply(String answer) {
                return Map.of("candidates", List.of(Map.of("content", Map.of("role", "model", "parts",
                        List.of(Map.of("text", answer))))));
            }

            private static Object functionCall(String query) {
                return Map.of("functionCall", Map.of("name", "search_kb", "args", Map.of("query", query)));
            }
        },
        RESPONSES("https://api.openai.com/v1/responses") {
            @Override
            Object request(List<String> searched) {
                List<Object> input = new ArrayList<>(List.of(Map.of("role", "user", "content", QUESTION)));
                for (int i = 0; i < searched.size(); i++) {
                    input.add(functionCall(i, searched.get(i)));
                    input.add(Map.of("type", "function_call_output", "call_id", "c" + i, "output", FOUND.get(i)));
                }
                return Map.of("model", "gpt-4o-mini", "input", input, "tools", List.of(Map.of("type", "function",
                        "name", "search_kb")));
            }

            @Override
            Object toolReply(int turn, String query) {
                return Map.of("model", "gpt-4o-mini", "output", List.of(functionCall(turn, query)));
            }

            @Override
            Object textReply(String answer) {
                return Map.of("model", "gpt-4o-mini", "output", List.of(Map.of("type", "message", "role",
                        "assistant", "content", List.of(Map.of("type", "output_text", "text", answer)))));
            }

            private static Object functionCall(int turn, String query) {
                return Map.of("type", "function_call", "call_id", "c" + turn, "name", "search_kb", "arguments",
                        "{\"query\": \"" + query + "\"}");
            }
        };

        final String url;

        Api(String url) {
            this.url = url;
        }

        abstract Object request(List<String> searched);

        abstract Object toolReply(int turn, String query);

        abstract Object textReply(String answer);
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void shouldReadAnAgentsTwoSearchingTurnsAsTheRewriterOfOneRun(Api api) throws Exception {
        ClassifiedCall first = call(api, "turn-1", 0, api.request(List.of()), api.toolReply(0, FIRST));
        ClassifiedCall second = call(api, "turn-2", 1000, api.request(List.of(FIRST)), api.toolReply(1, SECOND));
        ClassifiedCall answer = call(api, "turn-3", 2000, api.request(List.of(FIRST, SECOND)),
                api.textReply(ANSWER));

        Run run = assembly.theOneRunOf(List.of(first, second, answer));

        assertThat(List.of(first.stage(), second.stage(), answer.stage()))
                .containsExactly(Stage.REWRITE, Stage.REWRITE, Stage.GENERATE);
        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.stages().rewrite().callIds()).containsExactly("turn-1", "turn-2");
        assertThat(run.stages().rewrite().outputs()).containsExactly(FIRST, SECOND);
        assertThat(run.stages().generate().callIds()).containsExactly("turn-3");
        assertThat(run.stages().generate().context()).extracting(p -> p.text()).containsExactlyElementsOf(FOUND);
    }

    /**
     * The agent's search tool embeds each query in process (no retrieval call: an in-memory store) and reranks what it
     * found, and its embedding goes wrong in both searches (a slip of the keyboard, the last letter lost): each
     * embedding call is linked to its own turn by its text near that turn's query, and each rerank by its query; none
     * is left over as a run of its own.
     */
    @ParameterizedTest
    @EnumSource(Api.class)
    void shouldLinkEachOfAnAgentsSearchesWithItsFaultyEmbeddingAndItsRerank(Api api) throws Exception {
        String firstSlip = "Acme cash flpw 202";
        String secondSlip = "Acme operating cash flow fourth quartwr 202";
        List<ClassifiedCall> calls = List.of(
                call(api, "turn-1", 0, api.request(List.of()), api.toolReply(0, FIRST)),
                embedding("embed-1", 600, firstSlip), rerank("rerank-1", 800, FIRST, 0),
                call(api, "turn-2", 1000, api.request(List.of(FIRST)), api.toolReply(1, SECOND)),
                embedding("embed-2", 1600, secondSlip), rerank("rerank-2", 1800, SECOND, 1),
                call(api, "turn-3", 2000, api.request(List.of(FIRST, SECOND)), api.textReply(ANSWER)));

        Run run = assembly.theOneRunOf(calls);

        assertThat(run.incomplete()).isFalse();
        assertThat(run.stages().rewrite().callIds()).containsExactly("turn-1", "turn-2");
        assertThat(run.stages().embed().texts()).containsExactly(firstSlip, secondSlip);
        assertThat(run.stages().rerank().callIds()).containsExactly("rerank-1", "rerank-2");
        assertThat(run.stages().rerank().output()).extracting(p -> p.text()).containsExactlyElementsOf(FOUND);
        assertThat(run.stages().generate().context()).extracting(p -> p.text()).containsExactlyElementsOf(FOUND);
    }

    /** One unhinted call of the agent's, {@code atMs} in, 500 ms long (an LLM's) or 150 ms (the tool's). */
    private static ClassifiedCall call(Api api, String id, long atMs, Object request, Object reply) {
        return call(id, api.url, atMs, 500, request, reply);
    }

    private static ClassifiedCall embedding(String id, long atMs, String text) {
        return call(id, "https://api.openai.com/v1/embeddings", atMs, 150, Map.of("model", "text-embedding-3-small",
                "input", text), Map.of("model", "text-embedding-3-small", "data", List.of(Map.of("index", 0,
                "embedding", List.of(0.1, 0.2, 0.3, 0.4, text.length() / 100.0)))));
    }

    /** Cohere's rerank of what a search found: the passage {@code found} names first, kept. */
    private static ClassifiedCall rerank(String id, long atMs, String query, int found) {
        List<String> documents = List.of(FOUND.get(found), "Revenue grew 12% in 2022, led by the consumer unit.");
        return call(id, "https://api.cohere.com/v1/rerank", atMs, 150, Map.of("model", "rerank-english-v3.0",
                "query", query, "documents", documents, "top_n", 1), Map.of("results", List.of(Map.of("index", 0,
                "relevance_score", 0.91))));
    }

    private static ClassifiedCall call(String id, String url, long atMs, long forMs, Object request, Object reply) {
        Function<Object, JsonNode> tree = Json.MAPPER::valueToTree;
        CallEvent template = Calls.call("POST", url, tree.apply(request), 200, tree.apply(reply));
        return Calls.classified(new CallEvent(template.schema(), id, "agent", null,
                template.startedAt().plusMillis(atMs), template.startedAt().plusMillis(atMs + forMs),
                template.request(), template.response(), template.source()));
    }
}

package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import io.raglog.schemas.Json;
import io.raglog.simulator.profile.Profile;
import io.raglog.simulator.profile.Profiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The held-out agent profile: each run is the agent's turn that calls its search tool with the query it wrote (the
 * run's rewrite, faults and all), the tool's embedding and rerank (an in-process store: no retrieval call), and the
 * turn that answers from the tool's result, which carries the first turn's call.
 */
class AgentProfileTest {

    static final String AGENT = "unseen-agent-openai";

    @TempDir
    static Path dir;

    static SimulatedLogs logs;

    @BeforeAll
    static void simulate() {
        logs = SimulatedLogs.simulate(SimulatorOptions.of(AGENT, 120, 8), dir);
    }

    @Test
    void shouldKeepTheAgentProfileOutOfAll() {
        assertThat(Profiles.all()).extracting(Profile::name).doesNotContain(AGENT);
        assertThat(Profiles.select(AGENT)).extracting(Profile::name).containsExactly(AGENT);
        assertThat(logs.labels).hasSize(120).extracting(Label::profile).containsOnly(AGENT);
    }

    @Test
    void shouldAnswerFromTheToolsResultAfterATurnThatCalledTheTool() throws Exception {
        for (Label label : logs.labels) {
            JsonNode answer = logs.callsById.get(label.generatorEventId());
            JsonNode messages = answer.path("request").path("body").path("messages");
            assertThat(messages).hasSize(4);
            JsonNode call = messages.get(2).path("tool_calls").path(0);
            assertThat(call.path("function").path("name").asText()).isEqualTo("search_knowledge_base");
            String query = Json.MAPPER.readTree(call.path("function").path("arguments").asText()).path("query")
                    .asText();
            // the tool call the first turn replied with is the one the answer's conversation carries
            JsonNode search = logs.calls.stream().filter(c -> c.path("response").path("body").path("choices").path(0)
                    .path("message").path("tool_calls").path(0).path("id").asText().equals(call.path("id").asText()))
                    .findFirst().orElseThrow();
            assertThat(search.path("response").path("body").path("choices").path(0).path("finish_reason").asText())
                    .isEqualTo("tool_calls");
            assertThat(search.path("request").path("body").path("messages").get(1).path("content").asText())
                    .isEqualTo(label.question());
            assertThat(query).isNotBlank();
            assertThat(messages.get(3).path("role").asText()).isEqualTo("tool");
            assertThat(answer.path("response").path("body").path("choices").path(0).path("message").path("content")
                    .asText()).isEqualTo(label.answer());
        }
        // no call to a vector store: the tool searches in process
        assertThat(logs.calls).extracting(c -> c.path("request").path("url").asText())
                .allSatisfy(url -> assertThat(List.of("https://api.openai.com/v1/chat/completions",
                        "https://api.openai.com/v1/embeddings", "https://api.cohere.com/v2/rerank")).contains(url));
    }
}

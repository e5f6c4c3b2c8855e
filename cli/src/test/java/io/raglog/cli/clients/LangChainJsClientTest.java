package io.raglog.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real LangChain.js client ({@code langchain-rag.mjs}: a rewrite, OpenAI embeddings, LangChain's in-memory vector
 * store, Cohere rerank, OpenAI chat) answers questions a few at a time through raglog's logging proxy, with no run
 * header ({@link JsRagClient}).
 *
 * <p>This is the traffic a real client's recordings showed raglog getting wrong: with no retrieval call to carry the
 * query vector, a query embedded with a typo, cut at a budget, behind an instruction or from the wrong field no longer
 * equals the rewrite, and the embedding call fell out of its run. Every question must come out as one whole run, its
 * embedding call in it, and the index-building call as no run at all; then the shipped bundle must flag the embedding
 * stage of each run whose query the client got wrong, and of no other (a BGE-style instruction before the query
 * included: it is how such models are queried).
 */
class LangChainJsClientTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final int QUESTIONS = 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void install() throws Exception {
        JsRagClient.install();
    }

    @Test
    void shouldAssembleEveryQuestionIntoOneWholeRunAndFlagExactlyTheFaultyEmbeddings() throws Exception {
        JsRagClient.Plan plan = JsRagClient.Plan.of(40, QUESTIONS);
        JsRagClient.Recording recording = JsRagClient.record("langchain-rag.mjs", "helpdesk-langchain-js", plan, dir);
        // the index's documents in one batch, then a rewrite, an embedding, a rerank and an answer per question
        assertThat(recording.served()).isEqualTo(1 + 4 * QUESTIONS);
        assertThat(recording.answered()).hasSize(QUESTIONS);

        JsRagClient.Replayed replayed = JsRagClient.replay(recording.calls(), dir);
        assertThat(replayed.summary().deadLetterCount()).isZero();
        assertThat(replayed.summary().incompleteCount()).as("calls no run claimed").isZero();
        assertThat(replayed.summary().runCount()).isEqualTo(QUESTIONS);
        for (JsonNode a : recording.answered()) {
            var question = plan.questions().get(a.path("id").asText());
            String fault = plan.faults().get(question.questionId());
            Run run = replayed.runs().get(question.question());
            assertThat(run).as("the run of %s (%s)", question.question(), fault).isNotNull();
            for (Stage stage : List.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE, Stage.RERANK, Stage.GENERATE)) {
                assertThat(run.has(stage)).as("%s of %s (%s)", stage.id(), question.question(), fault).isTrue();
            }
            // LangChain's OpenAIEmbeddings sends a text's new lines as spaces (its stripNewLines)
            assertThat(run.stages().embed().texts()).as("the embedded query of %s", question.question())
                    .containsExactly(a.path("embedded").asText().replace('\n', ' '));
            assertThat(run.stages().retrieve().reconstructed()).isTrue();
            assertThat(run.stages().generate().answer()).isEqualTo(a.path("answer").asText());
        }

        assertThat(replayed.verdicts()).hasSize(QUESTIONS);
        for (Verdict v : replayed.verdicts()) {
            String fault = plan.faultOf(v.question());
            assertThat(v.flaggedStages().contains(Stage.EMBED))
                    .as("embedding flagged for %s (%s): %s", v.question(), fault, v.stages().embed().evidence())
                    .isEqualTo(!JsRagClient.HEALTHY.contains(fault));
        }
    }
}

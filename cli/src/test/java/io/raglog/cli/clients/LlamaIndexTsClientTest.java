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
 * A real LlamaIndex.TS client ({@code llamaindex-rag.mjs}: the framework's defaults, VectorStoreIndex's in-memory store,
 * OpenAI embeddings and chat, a Cohere rerank postprocessor; no rewrite, so the question itself is embedded) answers
 * questions a few at a time through raglog's logging proxy, with no run header ({@link JsRagClient}). Its wire shapes
 * (batched index embeddings, LlamaIndex's prompt template around the context) are the library's own: every question
 * must come out as one whole run, and the embedding stage flagged exactly where the client got the query wrong.
 */
class LlamaIndexTsClientTest {

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
        JsRagClient.Recording recording = JsRagClient.record("llamaindex-rag.mjs", "kb-llamaindex-ts", plan, dir);
        // the index's 40 documents ten to a call (LlamaIndex's embedBatchSize), then an embedding, a rerank and an
        // answer per question
        assertThat(recording.served()).isEqualTo(4 + 3 * QUESTIONS);
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
            assertThat(run.has(Stage.REWRITE)).isFalse();
            for (Stage stage : List.of(Stage.EMBED, Stage.RETRIEVE, Stage.RERANK, Stage.ASSEMBLE, Stage.GENERATE)) {
                assertThat(run.has(stage)).as("%s of %s (%s)", stage.id(), question.question(), fault).isTrue();
            }
            assertThat(run.stages().embed().texts()).as("the embedded query of %s", question.question())
                    .containsExactly(a.path("embedded").asText());
            assertThat(run.stages().retrieve().reconstructed()).isTrue();
            // the reranker's three, found in LlamaIndex's prompt template around them
            assertThat(run.stages().generate().context()).hasSize(3);
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

package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.adapters.Passages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs on Google Cloud as their recorded calls show them, sent without their run hint. A Vertex AI RAG Engine
 * retrieval, the ranking API and a Gemini generator (no embedding call, as the RAG Engine embeds the question itself):
 * content alone must link the three into one run whose passages keep their identity from retrieval to the prompt. The
 * question embedded by {@code text-embedding-005}, Vector Search queried with that vector and answering with datapoint
 * ids alone, Claude through {@code :rawPredict}: the search has no query text, so only its vector can link it to the
 * embedding. And a call that retrieves and answers in one (Vertex AI Search's answer method, Gemini grounded on a
 * corpus) alone makes a whole run.
 */
class AssembleRecordedVertexRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("vertex");

    @Test
    void shouldAssembleAnUnhintedRagEngineRunFromItsRecordedCalls() throws Exception {
        Run run = assembly.theOneRunOf("rag-engine-retrieve-contexts", "rank-records", "rag-engine-gemini-generate");

        // the corpus names no chunk: each passage is named by its text, from retrieval to the prompt
        List<String> byText = run.stages().retrieve().passages().stream().map(p -> Passages.contentId(p.text()))
                .toList();
        RecordedRunAssembly.assertRetrievedRerankedAndAnswered(run, QUESTION, List.of("acme-ir-vertex-0011",
                "acme-ir-vertex-0012", "acme-ir-vertex-0013"), byText);
    }

    @Test
    void shouldLinkAnIdOnlyVectorSearchToTheEmbeddingByItsVector() throws Exception {
        Run run = assembly.theOneRunOf("predict-embed-query", "vector-search-find-neighbors", "raw-predict-claude");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-vertex-0002", "acme-ir-vertex-0003", "acme-ir-vertex-0006");
        assertThat(run.stages().embed().model()).isEqualTo("text-embedding-005");
        assertThat(run.stages().embed().dimensions()).isEqualTo(32);
        assertThat(run.stages().retrieve().query()).isNull();
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactly("acme-10k-2023-p41-c2",
                "acme-10k-2023-p44-c1", "acme-10k-2022-p39-c3", "acme-10k-2023-p52-c4");
        // ids alone: the prompt's passages cannot be told to be the retrieved ones, as with Pinecone's id-only matches
        assertThat(run.stages().retrieve().passages()).extracting(Passage::text).containsOnlyNulls();
        assertThat(run.stages().generate().model()).isEqualTo("claude-3-5-sonnet-v2-20241022");
        assertThat(run.stages().generate().context()).hasSize(3);
        assertThat(run.stages().generate().answer()).startsWith("Acme Corp's operating cash flow in 2023 was");
    }

    @Test
    void shouldAssembleAnAnswerCallAsARunWhoseRetrievalIsRebuiltFromItsReferences() throws Exception {
        Run run = assembly.theOneRunOf("answer-cited-chunks");

        RecordedRunAssembly.assertRebuiltFromTheGeneratorsPassages(run, QUESTION, 2);
    }

    @Test
    void shouldAssembleAGeminiCallGroundedOnACorpusAsARunWhoseRetrievalIsRebuiltFromItsContexts() throws Exception {
        Run run = assembly.theOneRunOf("gemini-grounded-rag-engine");

        RecordedRunAssembly.assertRebuiltFromTheGeneratorsPassages(run, QUESTION, 3);
        assertThat(run.stages().generate().context()).extracting(Passage::text)
                .allMatch(text -> !text.contains("<document"));
    }
}

package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.adapters.Passages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run on Google Cloud as its recorded calls show it (a Vertex AI RAG Engine retrieval, the ranking API, a Gemini
 * generator; no embedding call, as the RAG Engine embeds the question itself), sent without its run hint: content
 * alone must link the three into one run whose passages keep their identity from retrieval to the prompt. And a call
 * that retrieves and answers in one (Vertex AI Search's answer method, Gemini grounded on a corpus) alone makes a
 * whole run.
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

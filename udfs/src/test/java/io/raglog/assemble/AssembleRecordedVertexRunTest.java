package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import org.junit.jupiter.api.Test;

/**
 * A run on Vertex AI as its recorded calls show it (the question embedded by {@code text-embedding-005}, Vector Search
 * queried with that vector and answering with datapoint ids alone, Claude through {@code :rawPredict}), sent without
 * its run hint: the search has no query text, so only its vector can link it to the embedding, and the question links
 * the generator.
 */
class AssembleRecordedVertexRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @Test
    void shouldLinkAnIdOnlySearchToTheEmbeddingByItsVector() throws Exception {
        Run run;
        try (RecordedRuns vertex = new RecordedRuns("vertex")) {
            run = vertex.theOneRunOf("predict-embed-query", "vector-search-find-neighbors", "raw-predict-claude");
        }

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
}

package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Retrieval's repair hint fits the run's pipeline: no reranker to enable where one already runs, and the rewrite or
 * the query embedding to fix first where it is flagged too, since retrieval searched with what they made.
 */
class RetrieveRepairHintTest {

    private static final RunFeatures OFF_TOPIC = FixedBundles.namedFeatures(Map.of(
            FeatureList.LLM_RETRIEVE_OFF_TOPIC, 100.0, FeatureList.RETRIEVE_PASSAGE_COUNT, 5.0));
    private static final RunFeatures MISSED = FixedBundles.namedFeatures(Map.of(
            FeatureList.LLM_RETRIEVE_OFF_TOPIC, 0.0, FeatureList.RETRIEVE_PASSAGE_COUNT, 5.0));

    private static String hint(RunFeatures f, Set<Stage> present, Set<Stage> flagged) {
        return RepairHints.forStage(Stage.RETRIEVE, f, false, present, flagged);
    }

    @Test
    void offTopicPassagesAskForARerankerOnlyWhereThereIsNone() {
        Set<Stage> flagged = EnumSet.of(Stage.RETRIEVE);

        assertThat(hint(OFF_TOPIC, EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE), flagged))
                .startsWith("Retrieval is noisy: enable a reranker");
        assertThat(hint(OFF_TOPIC, EnumSet.allOf(Stage.class), flagged))
                .startsWith("Retrieval returned no passage that answers, and the reranker can only reorder what it"
                        + " returns")
                .doesNotContain("enable a reranker");
    }

    @Test
    void aFlaggedRewriteOrQueryEmbeddingIsTheFixToTryFirst() {
        Set<Stage> present = EnumSet.allOf(Stage.class);

        assertThat(hint(MISSED, present, EnumSet.of(Stage.EMBED, Stage.RETRIEVE))).isEqualTo("Fix the query"
                + " embedding (flagged too): retrieval searched with its vector. If retrieval still misses after that:"
                + " raise the retriever's top-k (it returned 5) or add a keyword (BM25) leg for names and numbers;"
                + " check that the document holding the answer is indexed and chunked whole.");
        assertThat(hint(OFF_TOPIC, present, EnumSet.of(Stage.REWRITE, Stage.RETRIEVE)))
                .startsWith("Fix the rewrite (flagged too): retrieval searched with it. If retrieval still misses"
                        + " after that: retrieval returned no passage that answers");
        assertThat(hint(MISSED, present, EnumSet.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE)))
                .startsWith("Fix the rewrite and the query embedding (both flagged too)");
        assertThat(hint(MISSED, present, EnumSet.of(Stage.RETRIEVE, Stage.GENERATE)))
                .as("a stage downstream of retrieval changes nothing of what it searched with")
                .startsWith("Raise the retriever's top-k");
    }
}

package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embed stage's repair hint names what the embedded text shows: a cut, altered terms, or text added around it. */
class EmbedRepairHintTest {

    private static String hint(Map<String, Double> values) {
        return RepairHints.forStage(Stage.EMBED, FixedBundles.namedFeatures(values), false,
                EnumSet.allOf(Stage.class), EnumSet.of(Stage.EMBED));
    }

    @Test
    void aQueryEmbeddedInsideAChatHistoryIsToldToDropTheHistoryWhateverNearMissesItsWordsMake() {
        // the history's "follow" read as a near miss of the query's "allow": the query itself kept every term
        assertThat(hint(Map.of(FeatureList.EMBED_LOST_KEY_TERMS, 0.0, FeatureList.EMBED_NEAR_MISS_WORDS, 1.0,
                FeatureList.EMBED_ADDED_WORDS, 5.0, FeatureList.EMBED_ADDED_SHARE, 0.7)))
                .startsWith("Remove the text added to the embedded query");
    }

    @Test
    void aTypoOrALostTermIsToldToEmbedTheQueryAsWritten() {
        assertThat(hint(Map.of(FeatureList.EMBED_LOST_KEY_TERMS, 0.0, FeatureList.EMBED_NEAR_MISS_WORDS, 1.0,
                FeatureList.EMBED_ADDED_WORDS, 0.0, FeatureList.EMBED_ADDED_SHARE, 0.0)))
                .startsWith("Embed the query exactly as the rewrite produced it");
        assertThat(hint(Map.of(FeatureList.EMBED_LOST_KEY_TERMS, 1.0, FeatureList.EMBED_NEAR_MISS_WORDS, 0.0,
                FeatureList.EMBED_ADDED_WORDS, 4.0, FeatureList.EMBED_ADDED_SHARE, 0.8)))
                .as("another text embedded in the query's place lost its terms: the templating is what to check")
                .startsWith("Embed the query exactly as the rewrite produced it");
    }

    @Test
    void aCutQueryIsToldToRaiseTheLimit() {
        assertThat(hint(Map.of(FeatureList.EMBED_TRUNCATED, 1.0, FeatureList.EMBED_ADDED_SHARE, 0.9)))
                .startsWith("Raise the embedding input limit");
    }
}

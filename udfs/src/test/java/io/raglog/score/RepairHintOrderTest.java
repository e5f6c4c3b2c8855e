package io.raglog.score;

import static io.raglog.checks.FeatureList.EMBED_ADDED_SHARE;
import static io.raglog.checks.FeatureList.EMBED_ADDED_WORDS;
import static io.raglog.checks.FeatureList.EMBED_LOST_KEY_TERMS;
import static io.raglog.checks.FeatureList.EMBED_NEAR_MISS_WORDS;
import static io.raglog.checks.FeatureList.EMBED_TRUNCATED;
import static io.raglog.checks.FeatureList.FLOW_OMITTED_SHARE;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NAMES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NUMBERS;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_UNSUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When a stage shows two things wrong, its repair hint names the one to fix first: the text added around an embedded
 * query before the near misses it brings, a cut before either; an answer that says what its context does not before
 * what it left out.
 */
class RepairHintOrderTest {

    private static String hint(Stage stage, Map<String, Double> values) {
        return RepairHints.forStage(stage, FixedBundles.namedFeatures(values), false, EnumSet.allOf(Stage.class),
                EnumSet.of(stage));
    }

    @Test
    void aQueryEmbeddedInsideAChatHistoryIsToldToDropTheHistoryWhateverNearMissesItsWordsMake() {
        // the history's "follow" is near the query's "allow": the query itself kept every term
        assertThat(hint(Stage.EMBED, Map.of(EMBED_LOST_KEY_TERMS, 0.0, EMBED_NEAR_MISS_WORDS, 1.0,
                EMBED_ADDED_WORDS, 5.0, EMBED_ADDED_SHARE, 0.7)))
                .startsWith("Remove the text added to the embedded query");
    }

    @Test
    void aTypoOrALostTermIsToldToEmbedTheQueryAsWritten() {
        assertThat(hint(Stage.EMBED, Map.of(EMBED_LOST_KEY_TERMS, 0.0, EMBED_NEAR_MISS_WORDS, 1.0,
                EMBED_ADDED_WORDS, 0.0, EMBED_ADDED_SHARE, 0.0)))
                .startsWith("Embed the query exactly as the rewrite produced it");
        assertThat(hint(Stage.EMBED, Map.of(EMBED_LOST_KEY_TERMS, 1.0, EMBED_NEAR_MISS_WORDS, 0.0,
                EMBED_ADDED_WORDS, 4.0, EMBED_ADDED_SHARE, 0.8)))
                .as("another text embedded in the query's place lost its terms: the templating is what to check")
                .startsWith("Embed the query exactly as the rewrite produced it");
    }

    @Test
    void aCutQueryIsToldToRaiseTheLimit() {
        assertThat(hint(Stage.EMBED, Map.of(EMBED_TRUNCATED, 1.0, EMBED_ADDED_SHARE, 0.9)))
                .startsWith("Raise the embedding input limit");
    }

    @Test
    void anAnswerThatInventedIsToldToKeepToTheEvidenceEvenWhenItAlsoLeftSomethingOut() {
        assertThat(hint(Stage.GENERATE, Map.of(FLOW_OMITTED_SHARE, 0.5, LLM_SUPPORT_UNSUPPORTED, 0.5)))
                .startsWith("Constrain the prompt to the evidence")
                .endsWith("It also left out information its context held.");
        assertThat(hint(Stage.GENERATE, Map.of(FLOW_OMITTED_SHARE, 0.5, GENERATE_UNSUPPORTED_NUMBERS, 1.0)))
                .as("a number no passage gives is said without the judge")
                .startsWith("Constrain the prompt to the evidence");
    }

    @Test
    void anAnswerThatOnlyLeftSomethingOutIsToldToAnswerEveryPart() {
        assertThat(hint(Stage.GENERATE, Map.of(FLOW_OMITTED_SHARE, 0.5, LLM_SUPPORT_UNSUPPORTED, 0.0,
                GENERATE_UNSUPPORTED_NUMBERS, 0.0, GENERATE_UNSUPPORTED_NAMES, 0.0)))
                .startsWith("Ask the generator to answer every part of the question");
        assertThat(hint(Stage.GENERATE, Map.of(LLM_SUPPORT_UNSUPPORTED, 0.5)))
                .isEqualTo("Constrain the prompt to the evidence: answer only from the context, cite the passage for"
                        + " each claim, and abstain when the context does not say.");
    }
}

package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A reviewer's decisions on a queued run: the labels they make, the schema they validate against, the label line. */
class ReviewSchemaTest {

    private static final Instant AT = Instant.parse("2026-12-02T09:30:00Z");

    private static JsonSchema schema() throws Exception {
        try (InputStream in = ReviewSchemaTest.class.getResourceAsStream("/schemas/review.v1.json")) {
            assertThat(in).as("review.v1.json on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    /** The reassigned run (rerank flagged; no rewrite): the reranker rejected, retrieval added, the rest sound. */
    static Review rerankRejectedRetrievalAdded() {
        return Review.of(VerdictSchemaTest.reassignedRun(), Map.of(
                Stage.EMBED, StageReview.SOUND,
                Stage.RETRIEVE, StageReview.ADDED,
                Stage.RERANK, StageReview.REJECTED,
                Stage.GENERATE, StageReview.SOUND), StageReview.SOUND, false, "ana", "the store never had the 2023 report",
                AT);
    }

    @Test
    void decisionsMakeTheLabelsAndTheVerdictIsKeptForTheAudit() {
        Review review = rerankRejectedRetrievalAdded();
        assertThat(review.stages()).isEqualTo(new LabelStages(null, 0, 1, 0, 0));
        assertThat(review.rejected()).containsExactly(Stage.RERANK);
        assertThat(review.added()).containsExactly(Stage.RETRIEVE);
        assertThat(review.verdict().flaggedStages()).containsExactly(Stage.RERANK);
        assertThat(review.verdict().rerank().probability()).isEqualTo(0.34);
        assertThat(review.verdict().rewrite().present()).isFalse();
    }

    @Test
    void encodedReviewValidatesAgainstItsSchemaAndReadsBack() throws Exception {
        Review review = rerankRejectedRetrievalAdded();
        JsonNode encoded = Json.MAPPER.valueToTree(review);
        assertThat(schema().validate(encoded)).isEmpty();
        assertThat(encoded.get("decisions").get("rerank").asText()).isEqualTo("rejected");
        assertThat(encoded.get("decisions").get("rewrite").isNull()).isTrue();
        assertThat(encoded.get("decisions").get("knowledge_gap").asText()).isEqualTo("sound");
        assertThat(encoded.get("stages").get("retrieve").asInt()).isEqualTo(1);
        assertThat(Json.read(Json.write(review), Review.class)).isEqualTo(review);
    }

    @Test
    void schemaRefusesADecisionThatIsNotOne() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(rerankRejectedRetrievalAdded());
        ((ObjectNode) encoded.get("decisions")).put("embed", "maybe");
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void aDecisionMustFitWhatRaglogSaid() {
        Verdict verdict = VerdictSchemaTest.reassignedRun();
        assertThatThrownBy(() -> Review.of(verdict, Map.of(Stage.EMBED, StageReview.CONFIRMED,
                Stage.RETRIEVE, StageReview.SOUND, Stage.RERANK, StageReview.ADDED, Stage.GENERATE, StageReview.SOUND,
                Stage.REWRITE, StageReview.SOUND), StageReview.CONFIRMED, null, "ana", null, AT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rewrite: the run has no such stage")
                .hasMessageContaining("embed: confirmed does not fit a stage raglog did not flag")
                .hasMessageContaining("rerank: added does not fit a stage raglog flagged")
                .hasMessageContaining("knowledge_gap: confirmed does not fit a gap raglog did not flag");
        assertThatThrownBy(() -> Review.of(verdict, Map.of(Stage.EMBED, StageReview.SOUND), null, null, "ana", null,
                AT)).hasMessageContaining("retrieve: no decision").hasMessageContaining("knowledge_gap: no decision");
    }

    @Test
    void aGapRaglogMissedIsAKnowledgeGapLabel() {
        Review review = Review.of(VerdictSchemaTest.reassignedRun(), Map.of(Stage.EMBED, StageReview.SOUND,
                Stage.RETRIEVE, StageReview.SOUND, Stage.RERANK, StageReview.REJECTED, Stage.GENERATE,
                StageReview.SOUND), StageReview.ADDED, true, "ana", null, AT);
        assertThat(review.knowledgeGap()).isTrue();
        assertThat(review.toLabel().knowledgeGap()).isTrue();
        assertThat(review.toLabel().onlyKnowledgeGap()).isTrue();
    }

    @Test
    void aReviewIsALabelLineTheTrainingCommandsRead() {
        Label label = Json.read(Json.write(rerankRejectedRetrievalAdded().toLabel()), Label.class);
        assertThat(label.schema()).isEqualTo(SchemaIds.LABEL_V3);
        assertThat(label.runId()).isEqualTo("run-1");
        assertThat(label.stages()).isEqualTo(new LabelStages(null, 0, 1, 0, 0));
        assertThat(label.faultStage()).isEqualTo("retrieve");
        assertThat(label.origin()).isEqualTo(Label.ORIGIN_NATURAL);
        assertThat(label.knowledgeGap()).isFalse();
        assertThat(label.profile()).isEqualTo(Review.LABEL_PROFILE);
    }
}

package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Feedback in ({@code feedback.v1.json}), the join's record out ({@code run-feedback.v1.json}), and what feedback adds
 * to a verdict ({@code verdict.v4.json}) and to the fault rates ({@code fault-rate.v4.json}).
 */
class FeedbackSchemaTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:05:00Z");

    private static JsonSchema schema(String file) throws Exception {
        try (InputStream in = FeedbackSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            assertThat(in).as(file + " on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    static Feedback thumbsDown() {
        return new Feedback(Feedback.SCHEMA_V1, "fb-1", "support-bot", FeedbackKind.THUMBS, "down", null,
                "wrong year", null, AT, null, "req-42", null, null, "widget");
    }

    static Feedback reAsk() {
        return new Feedback(Feedback.SCHEMA_V1, "reask-1", "support-bot", FeedbackKind.RE_ASK, null, null, null, null,
                AT, null, null, null, "What was the operating cash flow in 2023?", "re-ask-detector");
    }

    @Test
    void everyKindOfFeedbackValidatesAndRoundTrips() throws Exception {
        Feedback score = new Feedback(Feedback.SCHEMA_V1, "fb-2", "support-bot", FeedbackKind.SCORE, null,
                new FeedbackScore(4, 1, 5), null, null, AT, "run-1", null, null, null, null);
        Feedback correction = new Feedback(Feedback.SCHEMA_V1, "fb-3", "support-bot", FeedbackKind.CORRECTION, null,
                null, null, "It was 1889.", AT, null, null, "5b8efff798038103d269b633813fc60c", null, null);
        for (Feedback f : List.of(thumbsDown(), reAsk(), score, correction)) {
            assertThat(schema("feedback.v1.json").validate(Json.MAPPER.valueToTree(f))).as(f.kind().id()).isEmpty();
            assertThat(Json.read(Json.write(f), Feedback.class)).isEqualTo(f);
        }
        assertThat(Json.MAPPER.valueToTree(reAsk()).get("kind").asText()).isEqualTo("re_ask");
    }

    @Test
    void negativeIsAThumbsDownALowScoreACorrectionOrAReAsk() {
        assertThat(thumbsDown().negative()).isTrue();
        assertThat(reAsk().negative()).isTrue();
        Feedback two = new Feedback(Feedback.SCHEMA_V1, "s", "p", FeedbackKind.SCORE, null, new FeedbackScore(2, 1, 5),
                null, null, AT, "r", null, null, null, null);
        Feedback seven = new Feedback(Feedback.SCHEMA_V1, "s", "p", FeedbackKind.SCORE, null,
                new FeedbackScore(7, 0, 10), null, null, AT, "r", null, null, null, null);
        Feedback comment = new Feedback(Feedback.SCHEMA_V1, "c", "p", FeedbackKind.COMMENT, null, null, "hm", null, AT,
                "r", null, null, null, null);
        assertThat(two.negative()).isTrue();
        assertThat(seven.negative()).isFalse();
        assertThat(seven.positive()).isTrue();
        assertThat(comment.negative()).isFalse();
        assertThat(comment.positive()).isFalse();
    }

    @Test
    void schemaRejectsFeedbackWithoutALocatorOrWithoutItsKindsValue() throws Exception {
        ObjectNode noLocator = Json.MAPPER.valueToTree(thumbsDown());
        noLocator.putNull("run_hint");
        assertThat(schema("feedback.v1.json").validate(noLocator)).isNotEmpty();
        ObjectNode noThumb = Json.MAPPER.valueToTree(thumbsDown());
        noThumb.putNull("thumbs");
        assertThat(schema("feedback.v1.json").validate(noThumb)).isNotEmpty();
        ObjectNode unknownKind = Json.MAPPER.valueToTree(thumbsDown());
        unknownKind.put("kind", "emoji");
        assertThat(schema("feedback.v1.json").validate(unknownKind)).isNotEmpty();
    }

    @Test
    void aDislikedPassedVerdictIsAV4VerdictQueuedForUserFeedbackAndV3StillReads() throws Exception {
        Verdict passed = VerdictSchemaTest.knowledgeGapOnly();
        // as scoring writes it: v4, with the thresholds that decided it
        Verdict plain = new Verdict(Verdict.SCHEMA_V4, passed.runId(), passed.pipeline(), passed.question(),
                passed.answer(), passed.stages(), List.of(), false, KnowledgeGap.undecided(), passed.llm(),
                passed.modelBundle(), passed.scoredAt(), null, ThresholdsUsed.bundle(passed.modelBundle()));
        assertThat(plain.queued()).isFalse();
        Verdict disliked = plain.withUserFeedback(UserFeedback.NONE.plus(thumbsDown()));

        assertThat(disliked.schema()).isEqualTo(Verdict.SCHEMA_V4);
        assertThat(disliked.queued()).isTrue();
        assertThat(disliked.queueReasons()).containsExactly(Verdict.USER_FEEDBACK);
        assertThat(schema("verdict.v4.json").validate(Json.MAPPER.valueToTree(disliked))).isEmpty();
        assertThat(Json.read(Json.write(disliked), Verdict.class)).isEqualTo(disliked);
        assertThat(Json.MAPPER.valueToTree(disliked).get("user_feedback").get("comment").asText())
                .isEqualTo("wrong year");
        assertThat(Json.MAPPER.valueToTree(plain).has("user_feedback")).as("a scored verdict reads as before")
                .isFalse();
        assertThat(schema("verdict.v4.json").validate(Json.MAPPER.valueToTree(plain))).isEmpty();
        Verdict scoredBeforeV4 = new Verdict(Verdict.SCHEMA_V3, passed.runId(), passed.pipeline(), passed.question(),
                passed.answer(), passed.stages(), List.of(), false, KnowledgeGap.undecided(), passed.llm(),
                passed.modelBundle(), passed.scoredAt());
        assertThat(schema("verdict.v3.json").validate(Json.MAPPER.valueToTree(scoredBeforeV4))).isEmpty();
        Verdict v3 = Json.read(Json.write(VerdictSchemaTest.reassignedRun()), Verdict.class);
        assertThat(v3.userFeedback()).isNull();
        assertThat(v3.withUserFeedback(UserFeedback.NONE.plus(reAsk())).queueReasons())
                .containsExactly("rerank", Verdict.USER_FEEDBACK);
    }

    @Test
    void theJoinedRecordValidatesJoinedOrNot() throws Exception {
        Verdict scored = VerdictSchemaTest.reassignedRun();
        Verdict after = scored.withUserFeedback(UserFeedback.NONE.plus(thumbsDown()));
        RunFeedback joined = RunFeedback.joined(scored, after, "run_hint", thumbsDown());
        RunFeedback none = RunFeedback.noVerdict(reAsk());

        for (RunFeedback r : List.of(joined, none)) {
            assertThat(schema("run-feedback.v1.json").validate(Json.MAPPER.valueToTree(r))).as(r.outcome()).isEmpty();
            assertThat(Json.read(Json.write(r), RunFeedback.class)).isEqualTo(r);
        }
        assertThat(joined.queueReasons()).containsExactly("rerank", "user_feedback");
        ObjectNode inconsistent = Json.MAPPER.valueToTree(none);
        inconsistent.put("run_id", "run-1");
        assertThat(schema("run-feedback.v1.json").validate(inconsistent)).isNotEmpty();
    }

    @Test
    void theNegativeFeedbackSeriesIsV4AndAV3ReaderRefusesItRatherThanMisreadingIt() throws Exception {
        FaultRate series = new FaultRate(FaultRate.SCHEMA_V4, "support-bot", FaultRate.USER_FEEDBACK_NEGATIVE,
                Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T10:01:00Z"), 8, 8, 3, 0.375);
        assertThat(schema("fault-rate.v4.json").validate(Json.MAPPER.valueToTree(series))).isEmpty();
        assertThat(Json.read(Json.write(series), FaultRate.class)).isEqualTo(series);
        assertThat(schema("fault-rate.v3.json").validate(Json.MAPPER.valueToTree(series))).isNotEmpty();
    }
}

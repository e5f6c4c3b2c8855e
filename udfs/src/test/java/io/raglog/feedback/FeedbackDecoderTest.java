package io.raglog.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.FeedbackKind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FeedbackDecoderTest {

    private static FeedbackDecoder.Decoded decode(String json) {
        return FeedbackDecoder.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldDecodeAReAskFoundByItsQuestion() {
        var d = decode("{\"schema\":\"raglog.feedback/v1\",\"feedback_id\":\"r1\",\"pipeline\":\"bot\","
                + "\"kind\":\"re_ask\","
                + "\"at\":\"2026-12-01T10:00:00+01:00\",\"question\":\"Who?\",\"source\":\"re-ask-detector\"}");

        assertThat(d.reason()).isNull();
        assertThat(d.feedback().kind()).isEqualTo(FeedbackKind.RE_ASK);
        assertThat(d.feedback().at()).hasToString("2026-12-01T09:00:00Z");
        assertThat(RunLocator.of(d.feedback()).byQuestion()).isTrue();
        assertThat(d.feedback().negative()).isTrue();
    }

    @Test
    void shouldGiveEachMalformedRecordAReasonAPersonCanAct() {
        assertThat(decode("").reason()).isEqualTo("empty message");
        assertThat(decode("[1]").reason()).isEqualTo("not a JSON object");
        assertThat(decode("{\"schema\":").reason()).startsWith("not JSON");
        assertThat(decode("{\"schema\":\"raglog.feedback/v1\",\"feedback_id\":\"f\",\"pipeline\":\"bot\","
                + "\"kind\":\"thumbs\",\"thumbs\":\"sideways\",\"at\":\"yesterday\"}").reason())
                .contains("thumbs must be up or down", "at is not an RFC 3339 date-time", "no locator");
        assertThat(decode("{\"schema\":\"raglog.feedback/v1\",\"feedback_id\":\"f\",\"pipeline\":\"bot\","
                + "\"kind\":\"score\",\"score\":{\"value\":9,\"min\":1,\"max\":5},\"at\":\"2026-12-01T10:00:00Z\","
                + "\"run_id\":\"run-1\"}").reason()).contains("not within a scale");
        assertThat(decode("{\"schema\":\"raglog.feedback/v2\",\"pipeline\":\"bot\",\"kind\":\"comment\","
                + "\"at\":\"2026-12-01T10:00:00Z\",\"trace_id\":\"ABC\"}").reason())
                .contains("schema must be raglog.feedback/v1", "feedback_id is required",
                        "comment is required for kind comment", "trace_id must be 32 lower-case hex digits");
    }
}

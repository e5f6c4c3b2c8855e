package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.RecordedCalls;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decoder builds the record from the validated tree by hand: it must give what Jackson's binding gives. */
class CallEventDecoderTest {

    private static String call(String startedAt) {
        return "{\"schema\":\"raglog.call/v1\",\"event_id\":\"e-1\",\"pipeline\":\"p\",\"run_hint\":null,"
                + "\"started_at\":\"" + startedAt + "\",\"ended_at\":\"2026-01-01T00:00:01Z\","
                + "\"request\":{\"method\":\"POST\",\"url\":\"http://llm/v1/chat/completions\","
                + "\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"Wann wurde Zürich gegründet?\"}]}},"
                + "\"response\":{\"status\":200,\"headers\":null,\"body\":null},\"source\":\"proxy\"}";
    }

    @Test
    void shouldDecodeEveryRecordedCallAsJacksonBindsIt() throws IOException {
        List<Path> fixtures = RecordedCalls.files();
        for (Path fixture : fixtures) {
            byte[] bytes = Files.readAllBytes(fixture);
            CallEventDecoder.Decoded decoded = CallEventDecoder.decode(bytes);

            assertThat(decoded.reason()).as(fixture.toString()).isNull();
            assertThat(decoded.event()).as(fixture.toString())
                    .isEqualTo(redacted(Json.MAPPER.readValue(bytes, CallEvent.class)));
        }
    }

    /** What the decoder does after reading: credential headers replaced, whatever the producer wrote there. */
    private static CallEvent redacted(CallEvent e) {
        HttpRequest rq = e.request();
        HttpResponse rs = e.response();
        return new CallEvent(e.schema(), e.eventId(), e.pipeline(), e.runHint(), e.startedAt(), e.endedAt(),
                new HttpRequest(rq.method(), rq.url(), Credentials.redactHeaders(rq.headers()), rq.body()),
                new HttpResponse(rs.status(), Credentials.redactHeaders(rs.headers()), rs.body()), e.source());
    }

    @Test
    void shouldReadOffsetsAndNonAsciiTextAndAbsentHeaders() throws IOException {
        CallEvent event = CallEventDecoder.decode(call("2026-01-01T01:00:00.250+01:00")
                .getBytes(StandardCharsets.UTF_8)).event();

        assertThat(event.startedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.250Z"));
        assertThat(event.runHint()).isNull();
        assertThat(event.request().headers()).isNull();
        assertThat(event.response().headers()).isNull();
        assertThat(event.response().body()).isNull();
        assertThat(event.request().body().at("/messages/0/content").asText())
                .isEqualTo("Wann wurde Zürich gegründet?");
        assertThat(event).isEqualTo(Json.MAPPER.readValue(call("2026-01-01T01:00:00.250+01:00"), CallEvent.class));
    }

    @Test
    void shouldRejectBytesThatAreNotUtf8EvenAfterAnAsciiStart() {
        byte[] bytes = call("2026-01-01T00:00:00Z").getBytes(StandardCharsets.UTF_8);
        int umlaut = new String(bytes, StandardCharsets.UTF_8).indexOf('ü');
        bytes[umlaut + 1] = (byte) 0x28; // the ü's continuation byte broken

        assertThat(CallEventDecoder.decode(bytes).reason()).isEqualTo("not valid UTF-8");
    }

    @Test
    void shouldKeepTheSessionAsJacksonBindsItAndNoneWhenAbsent() {
        String withSession = call("2026-01-01T00:00:00Z").replace("\"source\":\"proxy\"}",
                "\"source\":\"proxy\",\"session\":\"s-42\"}");
        CallEvent event = CallEventDecoder.decode(withSession.getBytes(StandardCharsets.UTF_8)).event();

        assertThat(event.session()).isEqualTo("s-42");
        assertThat(event).isEqualTo(io.raglog.schemas.Json.read(withSession, CallEvent.class));
        assertThat(CallEventDecoder.decode(call("2026-01-01T00:00:00Z").getBytes(StandardCharsets.UTF_8)).event()
                .session()).isNull();
    }

    @Test
    void shouldRejectAnEndBeforeItsStart() {
        assertThat(CallEventDecoder.decode(call("2026-01-01T00:00:02Z").getBytes(StandardCharsets.UTF_8))
                .reason()).isEqualTo("invalid raglog.call/v1: ended_at is before started_at");
    }

    @Test
    void shouldNameEveryProblemOfAnInvalidCall() {
        String bad = call("yesterday").replace("\"status\":200", "\"status\":\"ok\"")
                .replace("\"event_id\":\"e-1\"", "\"event_id\":\"\"");

        assertThat(CallEventDecoder.decode(bad.getBytes(StandardCharsets.UTF_8)).reason())
                .startsWith("invalid raglog.call/v1: ")
                .contains("event_id must be a non-empty string", "started_at is not an RFC 3339 date-time",
                        "response.status must be an integer 0-999");
    }
}

package io.raglog.calls.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A traced call's session comes from OpenTelemetry's {@code session.id}, into the field the proxy fills. */
class SpanSessionTest {

    @Test
    void shouldReadTheSessionFromTheSpanAttribute() {
        assertThat(TestSpans.call("{\"session.id\": \" s-42 \", \"openinference.span.kind\": \"LLM\"}").session())
                .isEqualTo("s-42");
    }

    @Test
    void shouldGiveNoSessionWhenTheSpanHasNoneOrNotAString() {
        assertThat(TestSpans.call("{\"openinference.span.kind\": \"LLM\"}").session()).isNull();
        assertThat(TestSpans.call("{\"session.id\": 42}").session()).isNull();
        assertThat(TestSpans.call("{\"session.id\": \"  \"}").session()).isNull();
    }
}

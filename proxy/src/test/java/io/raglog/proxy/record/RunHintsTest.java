package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunHintsTest {

    @Test
    void shouldPreferTheExplicitRunIdOverTraceparent() {
        assertThat(RunHints.of(" run-7 ", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isEqualTo("run-7");
    }

    @Test
    void shouldTakeTheTraceIdOfAW3cTraceparent() {
        assertThat(RunHints.of(null, "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        // A future version may append fields; the trace id stays where it is.
        assertThat(RunHints.of(null, "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void shouldGiveNoHintRatherThanAWrongOne() {
        assertThat(RunHints.of(null, null)).isNull();
        assertThat(RunHints.of("  ", null)).isNull();
        assertThat(RunHints.of(null, "00-00000000000000000000000000000000-00f067aa0ba902b7-01")).isNull();
        assertThat(RunHints.of(null, "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isNull();
        assertThat(RunHints.of(null, "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01")).isNull();
        assertThat(RunHints.of(null, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")).isNull();
        assertThat(RunHints.of(null, "not a traceparent")).isNull();
    }
}

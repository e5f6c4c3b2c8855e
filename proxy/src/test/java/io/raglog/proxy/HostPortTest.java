package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostPortTest {

    @Test
    void shouldParseTheUsualSpellings() {
        assertThat(HostPort.parse("127.0.0.1:8080", "0.0.0.0").getPort()).isEqualTo(8080);
        assertThat(HostPort.parse(":9180", "127.0.0.1").getHostString()).isEqualTo("127.0.0.1");
        assertThat(HostPort.parse("0", "127.0.0.1").getPort()).isZero();
        assertThat(HostPort.parse("[::1]:8080", "127.0.0.1").getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void shouldRejectWhatIsNotAPort() {
        assertThatThrownBy(() -> HostPort.parse("localhost:http", "x")).hasMessageContaining("not a port");
        assertThatThrownBy(() -> HostPort.parse("localhost:70000", "x")).hasMessageContaining("out of range");
    }
}

package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyCaptureTest {

    @Test
    void shouldKeepBytesUpToTheCapAndCountAllWithoutConsumingTheBuffer() {
        BodyCapture capture = new BodyCapture(10);
        ByteBuf first = Unpooled.copiedBuffer("0123456", StandardCharsets.US_ASCII);
        ByteBuf second = Unpooled.copiedBuffer("789abcdef", StandardCharsets.US_ASCII);

        capture.append(first);
        capture.append(second);

        assertThat(new String(capture.kept(), StandardCharsets.US_ASCII)).isEqualTo("0123456789");
        assertThat(capture.total()).isEqualTo(16);
        assertThat(capture.truncated()).isTrue();
        assertThat(second.readableBytes()).as("the call's bytes still go on").isEqualTo(9);
    }

    @Test
    void shouldRecordNothingWithACapOfZero() {
        BodyCapture capture = new BodyCapture(0);
        capture.append(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII));
        assertThat(capture.kept()).isEmpty();
        assertThat(CapturedBody.of(capture).truncated()).isTrue();
    }
}

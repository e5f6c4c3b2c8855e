package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class RawMessageTest {

    private final TypeSerializer<RawMessage> serializer = RawMessage.TYPE.createSerializer(new SerializerConfigImpl());

    @Test
    void shouldBeHandedToItsDecoderWithoutACopy() {
        RawMessage message = new RawMessage("raglog.calls", 1, 42L, "{\"schema\":\"raglog.call/v1\"}".getBytes(
                StandardCharsets.UTF_8));

        assertThat(serializer.isImmutableType()).isTrue();
        assertThat(serializer.copy(message)).isSameAs(message);
    }

    @Test
    void shouldComeBackByteForByteWhenItDoesCrossTasks() throws Exception {
        byte[] payload = new byte[256];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i; // every byte value, invalid UTF-8 included: a dead letter keeps them all
        }
        DataOutputSerializer out = new DataOutputSerializer(512);
        serializer.serialize(new RawMessage("raglog.otlp", 0, 7L, payload), out);
        RawMessage back = serializer.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));

        assertThat(back.origin()).isEqualTo("raglog.otlp");
        assertThat(back.partition()).isZero();
        assertThat(back.offset()).isEqualTo(7L);
        assertThat(back.payload()).isEqualTo(payload);
    }
}

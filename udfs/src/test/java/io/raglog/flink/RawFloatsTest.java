package io.raglog.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.assemble.AssemblyFixtures;
import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Embedding vectors through {@link JacksonSerializer}: their floats' bytes, read back bit for bit. */
class RawFloatsTest {

    /** JacksonSerializer's mapper as snapshot version 5 wrote, vectors as arrays (its instants do not matter here). */
    private static final SmileMapper VERSION_5 =
            Json.configure(SmileMapper.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT));

    /** {@link #VERSION_5} with its property names in full each time, as version 7 writes them: for their sizes. */
    private static final SmileMapper VERSION_5_NAMES_IN_FULL = Json.configure(SmileMapper.builder()
            .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT).disable(SmileGenerator.Feature.CHECK_SHARED_NAMES));

    record Vectors(float[] one, List<float[]> more, float[] none) {}

    private static final JacksonSerializer<Vectors> VECTORS = new JacksonSerializer<>(Vectors.class);

    private static List<float[]> vectors() {
        List<float[]> out = new ArrayList<>(List.of(new float[0], new float[] {0f}, new float[] {-0f},
                new float[] {Float.NaN, Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffa00000)},
                new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE,
                    Float.MIN_NORMAL, -Float.MIN_VALUE}));
        Random random = new Random(27);
        for (int dimensions : new int[] {1, 3, 16, 384, 1536, 3072, 20_000}) {
            float[] v = new float[dimensions];
            for (int i = 0; i < dimensions; i++) {
                v[i] = i % 7 == 0 ? Float.intBitsToFloat(random.nextInt()) : (float) random.nextGaussian();
            }
            out.add(v);
        }
        return out;
    }

    @Test
    void shouldWriteEachVectorAsItsFloatsBytesAndReadItBackBitForBit() throws Exception {
        for (float[] vector : vectors()) {
            Vectors record = new Vectors(vector, List.of(vector, new float[] {1f, 2f}), null);
            byte[] written = write(record);
            ObjectNode tree = VERSION_5.readValue(Arrays.copyOfRange(written, 4, written.length), ObjectNode.class);
            assertThat(tree.get("one").isBinary()).isTrue();
            assertThat(tree.get("one").binaryValue()).hasSize(4 * vector.length);
            Vectors back = read(written);
            assertThat(bits(back.one())).isEqualTo(bits(vector));
            assertThat(bits(back.more().get(0))).isEqualTo(bits(vector));
            assertThat(back.more().get(1)).containsExactly(1f, 2f);
            assertThat(back.none()).isNull();
        }
    }

    @Test
    void shouldReadTheArraysVersion5WroteToTheSameFloats() throws Exception {
        for (float[] vector : vectors()) {
            if (hasNaN(vector)) {
                continue; // an array writes a NaN as a number, which reads as the one canonical NaN
            }
            Vectors record = new Vectors(vector, List.of(vector), null);
            byte[] before = VERSION_5.writeValueAsBytes(record);
            assertThat(VERSION_5.readValue(before, ObjectNode.class).get("one").isArray()).isTrue();
            Vectors back = read(JacksonSerializerTest.framed(before));
            assertThat(bits(back.one())).isEqualTo(bits(vector));
            assertThat(bits(back.more().get(0))).isEqualTo(bits(vector));
        }
    }

    @Test
    void shouldHandCallsWithVectorsOverAsTheyWere() throws Exception {
        JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        int withVectors = 0;
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            for (ClassifiedCall record : List.of(call, call.forAssembly())) {
                byte[] written = JacksonSerializerTest.written(calls, record);
                byte[] before = JacksonSerializerTest.framed(VERSION_5.writeValueAsBytes(record));
                if (Json.write(record).contains("vector")) {
                    withVectors++;
                    assertThat(written.length)
                            .isLessThan(VERSION_5_NAMES_IN_FULL.writeValueAsBytes(record).length + 4);
                }
                assertThat(Json.write(JacksonSerializerTest.read(calls, written)))
                        .isEqualTo(Json.write(record));
            }
        }
        assertThat(withVectors).isPositive();
    }

    @Test
    void shouldRefuseBytesThatAreNotWholeFloats() throws Exception {
        ObjectNode document = Json.MAPPER.createObjectNode().put("one", new byte[] {1, 2, 3, 4, 5});
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(VERSION_5.writeValueAsBytes(document))))
                .isInstanceOf(IOException.class).hasMessageContaining("5 bytes");
    }

    /** The contracts' JSON, and the Smile mappers that share its configuration, keep vectors as arrays. */
    @Test
    void shouldLeaveOtherMappersVectorsAsArrays() throws Exception {
        Vectors record = new Vectors(new float[] {0.5f, -1f}, List.of(), null);
        assertThat(Json.write(record)).isEqualTo("{\"one\":[0.5,-1.0],\"more\":[],\"none\":null}");
        assertThat(VERSION_5.readValue(VERSION_5.writeValueAsBytes(record), ObjectNode.class).get("one").isArray())
                .isTrue();
    }

    private static int[] bits(float[] v) {
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = Float.floatToRawIntBits(v[i]);
        }
        return out;
    }

    private static boolean hasNaN(float[] v) {
        for (float f : v) {
            if (Float.isNaN(f)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] write(Vectors record) throws IOException {
        return JacksonSerializerTest.written(VECTORS, record);
    }

    private static Vectors read(byte[] framed) throws IOException {
        return JacksonSerializerTest.read(VECTORS, framed);
    }
}

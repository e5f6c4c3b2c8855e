package io.raglog.flink;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.PrimitiveArrayDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.raglog.schemas.ReusedBytes;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Embedding vectors between raglog's tasks and in the assembly's state as one Smile binary value, their IEEE 754
 * floats in 4 bytes each, rather than a Smile array of floats. A call's query and result vectors cross from decoding
 * to the assembly and stay in its state until their run closes; read as an array, Jackson gathered each vector in
 * chunks and copied them into the array at the end ({@code ArrayBuilders$FloatBuilder}, 2.3 % of what raglog's own
 * threads allocated per run, JFR, issue #27). Raw (the mapper writes binary unencoded), a vector reads through a
 * buffer the thread keeps into the one array it becomes, bit for bit the floats written.
 *
 * <p>Both forms are read: an array (state written up to snapshot version 5) as Jackson read it before, binary as
 * floats. Only {@link JacksonSerializer}'s mapper has this form: the topics' and files' documents keep their arrays.
 */
final class RawFloats {

    private static final VarHandle FLOATS = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);

    /** Each thread's bytes of the vector being written or read; a vector is at most a few KB. */
    private static final ThreadLocal<ReusedBytes> BYTES = ThreadLocal.withInitial(ReusedBytes::new);

    private RawFloats() {}

    /** The module that gives {@code float[]} this form. */
    static SimpleModule module() {
        return new SimpleModule("raglog-raw-floats")
                .addSerializer(float[].class, new Writer())
                .addDeserializer(float[].class, new Reader());
    }

    static final class Writer extends StdSerializer<float[]> {
        private static final long serialVersionUID = 1L;

        Writer() {
            super(float[].class);
        }

        @Override
        public void serialize(float[] vector, JsonGenerator gen, SerializerProvider provider) throws IOException {
            ReusedBytes buffer = BYTES.get();
            byte[] bytes = buffer.holding(4 * vector.length);
            try {
                for (int i = 0; i < vector.length; i++) {
                    // raw bits: a NaN's payload crosses as it was, as the array's form kept it
                    FLOATS.set(bytes, 4 * i, vector[i]);
                }
                gen.writeBinary(bytes, 0, 4 * vector.length);
            } finally {
                buffer.release();
            }
        }
    }

    static final class Reader extends StdDeserializer<float[]> {
        private static final long serialVersionUID = 1L;

        /** What Jackson reads a {@code float[]} with when no module gives one: for the arrays written before. */
        private static final JsonDeserializer<?> ARRAYS = PrimitiveArrayDeserializers.forType(Float.TYPE);

        Reader() {
            super(float[].class);
        }

        @Override
        public float[] deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() != JsonToken.VALUE_EMBEDDED_OBJECT) {
                return (float[]) ARRAYS.deserialize(parser, context);
            }
            ReusedBytes buffer = BYTES.get();
            try {
                int length = parser.readBinaryValue(Base64Variants.getDefaultVariant(), buffer);
                if (length % 4 != 0) {
                    return context.reportInputMismatch(this, "a vector of %d bytes is not whole floats", length);
                }
                byte[] bytes = buffer.bytes();
                float[] vector = new float[length / 4];
                for (int i = 0; i < vector.length; i++) {
                    vector[i] = (float) FLOATS.get(bytes, 4 * i);
                }
                return vector;
            } finally {
                buffer.release();
            }
        }
    }
}

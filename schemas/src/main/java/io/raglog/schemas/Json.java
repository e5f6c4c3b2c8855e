package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one Jackson configuration every raglog contract is written and read with: snake_case names, RFC 3339
 * instants, unknown fields tolerated (producers outside this repo may add fields within a schema version).
 */
public final class Json {

    /** Thread-safe once configured; shared on purpose so its caches are warm. */
    public static final ObjectMapper MAPPER = configure(JsonMapper.builder());

    /**
     * This configuration on any Jackson format's mapper builder: the contracts' JSON here, and the binary form of the
     * same documents that records take between Flink operators.
     */
    public static <M extends ObjectMapper, B extends MapperBuilder<M, B>> M configure(B builder) {
        M mapper = builder
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new JavaTimeModule())
                // the same instants, written and read without a DateTimeFormatter per value (issue #27)
                .addModule(IsoInstants.module())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .serializationInclusion(JsonInclude.Include.ALWAYS)
                // embedding calls carry hundreds of floats per vector: parsing them was a tenth of decoding a call
                // (measured); the fast parser gives the same doubles as Double.parseDouble, correctly rounded
                .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                .build();
        // Captured bodies can be large (a prompt with twenty passages); the default 20 MB string cap is fine,
        // but nesting depth is bounded so a hostile body cannot blow the stack.
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(200)
                .build());
        return mapper;
    }

    private Json() {}

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Each thread's buffer for {@link #writeBytes}, taken while in use (a nested call gets a fresh one).
     * {@code writeValueAsBytes} grows a new buffer in chunks for every document and then copies them out: twice the
     * bytes of every run, verdict and LLM request the job writes (issue #27).
     */
    private static final ThreadLocal<ReusedBytes> WRITE_BUFFER = new ThreadLocal<>();

    public static byte[] writeBytes(Object value) {
        return inWriteBuffer(buffer -> MAPPER.writeValue(buffer, value));
    }

    /** A document written straight to a generator, with no tree or object of its own to serialize first. */
    @FunctionalInterface
    public interface Streamed {
        void writeTo(JsonGenerator json) throws IOException;
    }

    /** The same bytes {@link #writeBytes(Object)} gives for the tree or object the document would have built. */
    public static byte[] writeBytes(Streamed document) {
        return inWriteBuffer(buffer -> {
            try (JsonGenerator json = MAPPER.createGenerator(buffer)) {
                document.writeTo(json);
            }
        });
    }

    private interface BufferWrite {
        void into(ReusedBytes buffer) throws IOException;
    }

    private static byte[] inWriteBuffer(BufferWrite write) {
        ReusedBytes buffer = WRITE_BUFFER.get();
        WRITE_BUFFER.set(null);
        if (buffer == null) {
            buffer = new ReusedBytes();
        }
        try {
            write.into(buffer);
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            buffer.release();
            WRITE_BUFFER.set(buffer);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(byte[] json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

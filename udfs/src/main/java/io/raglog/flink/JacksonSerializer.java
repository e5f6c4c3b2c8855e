package io.raglog.flink;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.smile.SmileConstants;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.ReusedBytes;
import io.raglog.schemas.RunFeatures;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Writes a record as a length-prefixed Smile document: the contract's JSON document in Jackson's binary form, with the
 * same field names and values, so schema evolution follows the contracts (unknown fields are ignored on read, a
 * breaking change bumps the schema). Binary because every record between operators that are not chained, and every
 * call held in state, goes through here: numbers (embedding vectors among them) are copied rather than printed and
 * parsed, and strings are length-prefixed rather than escaped. Text JSON, which state written before (snapshot
 * version 1) holds, is still read: Smile documents start with their own header. A passage text repeated within a
 * record is written once ({@link SharedPassageTexts}), a run's features as its feature list's values without
 * their names ({@link PackedFeatures}), and an instant as its nanoseconds since the epoch rather than its text
 * ({@link NanoInstants}), and an embedding vector as its floats' bytes ({@link RawFloats}). Records are immutable, so copies are the record itself.
 */
public final class JacksonSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    /**
     * Thread-safe once configured, like {@link Json#MAPPER}, whose configuration it has; passage texts repeated within
     * a record are written once ({@link SharedPassageTexts}). Binary values (a hinted call's bodies on their way to the
     * assembly) are written raw: the length says where they end, and spreading them over 7-bit bytes, Smile's default
     * for framing by marker bytes, which a length-prefixed record needs none of, took a fifth of the time of handing
     * the calls of a run over (JMH {@code HandOverBenchmarks.handOverCalls}: 16.7k runs/s 7-bit, 20-21.7k raw; issue
     * #27). Instants are integers of nanoseconds ({@link NanoInstants}), here only: {@link Json#MAPPER}'s contracts
     * and every other mapper of this configuration keep their text. Property names are written in full each time
     * rather than as back-references to their first occurrence (snapshot version 7): the table of names seen, which
     * the writer filled and the reader grew from empty for every record, cost more than the names' bytes save
     * (JMH {@code HandOverBenchmarks.handOverRun}: 79.3 to 71.4 KB allocated an op, 15.5-16.1k to 16.7k ops/s;
     * {@code handOverCalls} 55.8 to 49.9 KB; a run's bytes 8.3 to 9.0 KB, a call's 6.0 KB within 1 %).
     */
    private static final SmileMapper SMILE = Json.configure(SmileMapper.builder()
            .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
            .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
            .addMixIn(Passage.class, SharedPassageTexts.PassageMixIn.class)
            .addMixIn(RunFeatures.class, PackedFeatures.RunFeaturesMixIn.class)
            .addMixIn(Instant.class, NanoInstants.InstantMixIn.class)
            .addModule(RawFloats.module()));

    private final Class<T> type;

    public JacksonSerializer(Class<T> type) {
        this.type = type;
    }

    Class<T> type() {
        return type;
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<T> duplicate() {
        return this; // stateless: the shared ObjectMapper is thread-safe
    }

    @Override
    public T createInstance() {
        return null;
    }

    @Override
    public T copy(T from) {
        return from;
    }

    @Override
    public T copy(T from, T reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    /**
     * Each thread's buffer for the document being written or read. A run is ~16 KB and every record crosses one to
     * three of these between its operators: {@code writeValueAsBytes} grew a fresh buffer in chunks and copied it out,
     * and reading allocated the message again before parsing it, together a fifth of what raglog's own threads
     * allocated per run (JFR, issue #27). The bytes written are the same.
     */
    private static final ThreadLocal<ReusedBytes> BUFFER = ThreadLocal.withInitial(ReusedBytes::new);

    /** Writes each record as its own class, as {@code writeValue} does; one writer for the JVM. */
    private static final ObjectWriter WRITER = SMILE.writer();

    /**
     * One reader per record class for the whole JVM: Flink makes serializers often (per task, per output, per
     * restore), and a reader found afresh for each would be built again each time.
     */
    private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return SMILE.readerFor(type);
        }
    };

    /** Each thread's writer and readers, which carry its table of passage texts. */
    private static final ThreadLocal<ThreadCodec> CODECS = ThreadLocal.withInitial(ThreadCodec::new);

    /**
     * A thread's writer and readers with its {@link SharedPassageTexts} attached once, the table cleared for each
     * record: attaching it per record ({@code withAttribute}) made a new writer or reader, its configuration and
     * attribute map for every record written and read (JFR, issue #27; JMH {@code HandOverBenchmarks.handOverRun}:
     * 82.1 to 75.3-79.3 KB allocated an op, {@code handOverScoringInput} 11.3 to 10.7 KB).
     */
    private static final class ThreadCodec {
        private final SharedPassageTexts texts = new SharedPassageTexts();
        private final ObjectWriter writer = WRITER.withAttribute(SharedPassageTexts.ATTRIBUTE, texts);
        private final Map<Class<?>, ObjectReader> readers = new HashMap<>();

        /** The writer, its table ready for the next record. */
        ObjectWriter writer() {
            texts.clear();
            return writer;
        }

        /** The reader for {@code type}, its table ready for the next record. */
        ObjectReader reader(Class<?> type) {
            texts.clear();
            ObjectReader reader = readers.get(type);
            if (reader == null) {
                reader = READERS.get(type).withAttribute(SharedPassageTexts.ATTRIBUTE, texts);
                readers.put(type, reader);
            }
            return reader;
        }
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        ReusedBytes buffer = BUFFER.get();
        try {
            CODECS.get().writer().writeValue(buffer, record);
            target.writeInt(buffer.size());
            target.write(buffer.bytes(), 0, buffer.size());
        } finally {
            buffer.release();
        }
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        int length = source.readInt();
        ReusedBytes buffer = BUFFER.get();
        byte[] bytes = buffer.holding(length);
        source.readFully(bytes, 0, length);
        try {
            if (isSmile(bytes, length)) {
                return CODECS.get().reader(type).readValue(bytes, 0, length);
            }
            return Json.MAPPER.readValue(bytes, 0, length, type);
        } finally {
            buffer.release();
        }
    }

    /** Smile's header, ":)\n"; a JSON document cannot start with it. */
    static boolean isSmile(byte[] bytes) {
        return isSmile(bytes, bytes.length);
    }

    private static boolean isSmile(byte[] bytes, int length) {
        return length >= 3 && bytes[0] == SmileConstants.HEADER_BYTE_1 && bytes[1] == SmileConstants.HEADER_BYTE_2
                && bytes[2] == SmileConstants.HEADER_BYTE_3;
    }

    @Override
    public T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof JacksonSerializer<?> other && other.type.equals(type);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
        return new Snapshot<>(type);
    }

    /** Restores the serializer for the recorded class; compatible as long as the class name is unchanged. */
    public static final class Snapshot<T> implements TypeSerializerSnapshot<T> {
        private Class<T> type;

        public Snapshot() {}

        Snapshot(Class<T> type) {
            this.type = type;
        }

        /**
         * 1: text JSON; 2: Smile; 3: Smile with each passage text once per record; 4: binary values raw (a hinted
         * call's bodies, {@code HeldBodies}), which the header says, and a run's features of the current feature list
         * packed as the list's version and its values ({@link PackedFeatures}). A call held by version 3 has no such
         * bodies (it holds them in its event and reads as it was); 5: an instant as an integer, its nanoseconds since
         * the epoch, where they fit a long (1677-2262), and as its ISO-8601 text beyond ({@link NanoInstants}); 6: an
         * embedding vector as one binary value of its floats ({@link RawFloats}). Each reads the bytes of the ones
         * before (a text written in full, features written as a map, an instant written as text, a vector as an
         * array, read as before; 7-bit binary reads as raw does), so state written by any of them restores as is; 7:
         * property names written in full each time, without Smile's shared names (the header says which, and a
         * document with shared names reads as before).
         */
        @Override
        public int getCurrentVersion() {
            return 7;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeUTF(type.getName());
        }

        @Override
        @SuppressWarnings("unchecked")
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
            String name = in.readUTF();
            try {
                type = (Class<T>) Class.forName(name, false, classLoader);
            } catch (ClassNotFoundException e) {
                throw new IOException("state was written for " + name + ", which is not on the classpath", e);
            }
        }

        @Override
        public TypeSerializer<T> restoreSerializer() {
            return new JacksonSerializer<>(type);
        }

        @Override
        public org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
                TypeSerializerSnapshot<T> oldSnapshot) {
            if (oldSnapshot instanceof Snapshot<T> old && old.type != null && old.type.getName().equals(type.getName())) {
                return org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            return org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}

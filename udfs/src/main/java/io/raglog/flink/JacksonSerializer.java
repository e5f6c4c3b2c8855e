package io.raglog.flink;

import io.raglog.schemas.Json;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Writes a record as a length-prefixed JSON document. Records are immutable, so copies are the record itself.
 * Schema evolution follows the contracts: unknown fields are ignored on read, a breaking change bumps the schema.
 */
public final class JacksonSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

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

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        byte[] bytes = Json.MAPPER.writeValueAsBytes(record);
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        byte[] bytes = new byte[source.readInt()];
        source.readFully(bytes);
        return Json.MAPPER.readValue(bytes, type);
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

        @Override
        public int getCurrentVersion() {
            return 1;
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

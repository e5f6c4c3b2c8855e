package io.raglog.flink;

import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for raglog's records (CallEvent, ClassifiedCall, Run, ...) that carry Jackson trees and lists:
 * Flink would otherwise fall back to Kryo, which is slow on them and not stable across versions. They travel and sit
 * in state as their JSON bytes, the same encoding their contracts define.
 */
public final class JacksonTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    private JacksonTypeInfo(Class<T> type) {
        this.type = Objects.requireNonNull(type);
    }

    public static <T> JacksonTypeInfo<T> of(Class<T> type) {
        return new JacksonTypeInfo<>(type);
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new JacksonSerializer<>(type);
    }

    @Override
    public String toString() {
        return "Jackson<" + type.getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JacksonTypeInfo<?> other && other.type.equals(type);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof JacksonTypeInfo;
    }
}

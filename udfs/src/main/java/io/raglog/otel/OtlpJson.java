package io.raglog.otel;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OTLP messages as OTLP/JSON, the proto3 JSON mapping with OTLP's deviations, the encoding
 * {@code io.raglog.calls.otlp.OtlpJsonDecoder} reads: lowerCamelCase field names; {@code traceId}, {@code spanId}
 * and {@code parentSpanId} in hex, other bytes in base64; enums as integers; 64-bit integers as decimal strings;
 * fields at their default value left out. protobuf-java-util's {@code JsonFormat} is not on the classpath, and it
 * would write ids in base64 and enums by name, which OTLP/JSON does not allow.
 */
public final class OtlpJson {

    /** The bytes fields OTLP/JSON writes in hex. */
    private static final Set<String> HEX_IDS = Set.of("trace_id", "span_id", "parent_span_id");
    private static final HexFormat HEX = HexFormat.of();

    private OtlpJson() {}

    /** One message as one line of OTLP/JSON (no line breaks inside). */
    public static String write(MessageOrBuilder message) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out)) {
            message(json, message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void message(JsonGenerator json, MessageOrBuilder message) throws IOException {
        json.writeStartObject();
        for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
            FieldDescriptor field = e.getKey();
            json.writeFieldName(field.getJsonName());
            if (field.isRepeated()) {
                json.writeStartArray();
                for (Object v : (List<?>) e.getValue()) {
                    value(json, field, v);
                }
                json.writeEndArray();
            } else {
                value(json, field, e.getValue());
            }
        }
        json.writeEndObject();
    }

    private static void value(JsonGenerator json, FieldDescriptor field, Object v) throws IOException {
        switch (field.getJavaType()) {
            case MESSAGE -> message(json, (MessageOrBuilder) v);
            case ENUM -> json.writeNumber(((EnumValueDescriptor) v).getNumber());
            case BYTE_STRING -> json.writeString(HEX_IDS.contains(field.getName())
                    ? HEX.formatHex(((ByteString) v).toByteArray())
                    : Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case STRING -> json.writeString((String) v);
            case BOOLEAN -> json.writeBoolean((Boolean) v);
            case INT -> {
                int i = (Integer) v;
                if (field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32) {
                    json.writeNumber(Integer.toUnsignedLong(i));
                } else {
                    json.writeNumber(i);
                }
            }
            case LONG -> {
                long l = (Long) v;
                boolean unsigned = field.getType() == FieldDescriptor.Type.UINT64
                        || field.getType() == FieldDescriptor.Type.FIXED64;
                json.writeString(unsigned ? Long.toUnsignedString(l) : Long.toString(l));
            }
            case FLOAT -> number(json, (Float) v);
            case DOUBLE -> number(json, (Double) v);
        }
    }

    private static void number(JsonGenerator json, double d) throws IOException {
        if (Double.isNaN(d)) {
            json.writeString("NaN");
        } else if (Double.isInfinite(d)) {
            json.writeString(d > 0 ? "Infinity" : "-Infinity");
        } else {
            json.writeNumber(d);
        }
    }

    /**
     * Reads one OTLP/JSON message into {@code builder}, for reading back what {@link #write} wrote (tests, tools):
     * lowerCamelCase or original field names, hex ids, enums as integers or names, 64-bit integers as strings or
     * numbers; unknown fields are ignored.
     */
    public static <B extends Message.Builder> B read(String json, B builder) {
        try {
            merge(Json.MAPPER.readTree(json), builder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return builder;
    }

    private static void merge(JsonNode object, Message.Builder builder) {
        if (!object.isObject()) {
            throw new IllegalArgumentException("expected an object for " + builder.getDescriptorForType().getName()
                    + ", got " + object.getNodeType());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            FieldDescriptor field = field(builder, e.getKey());
            if (field == null || e.getValue().isNull()) {
                continue;
            }
            if (field.isRepeated()) {
                for (JsonNode element : e.getValue()) {
                    builder.addRepeatedField(field, parse(builder, field, element));
                }
            } else {
                builder.setField(field, parse(builder, field, e.getValue()));
            }
        }
    }

    private static FieldDescriptor field(Message.Builder builder, String name) {
        for (FieldDescriptor f : builder.getDescriptorForType().getFields()) {
            if (f.getJsonName().equals(name) || f.getName().equals(name)) {
                return f;
            }
        }
        return null;
    }

    private static Object parse(Message.Builder owner, FieldDescriptor field, JsonNode v) {
        return switch (field.getJavaType()) {
            case MESSAGE -> {
                Message.Builder child = owner.newBuilderForField(field);
                merge(v, child);
                yield child.build();
            }
            case ENUM -> v.isNumber() ? field.getEnumType().findValueByNumber(v.intValue())
                    : field.getEnumType().findValueByName(v.asText());
            case BYTE_STRING -> ByteString.copyFrom(HEX_IDS.contains(field.getName())
                    ? HEX.parseHex(v.asText()) : Base64.getDecoder().decode(v.asText()));
            case STRING -> v.asText();
            case BOOLEAN -> v.asBoolean();
            case INT -> (int) Long.parseLong(v.asText()); // uint32 above 2^31 wraps, as protobuf-java holds it
            case LONG -> field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64
                    ? Long.parseUnsignedLong(v.asText()) : Long.parseLong(v.asText());
            case FLOAT -> (float) (v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble());
            case DOUBLE -> v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
        };
    }
}

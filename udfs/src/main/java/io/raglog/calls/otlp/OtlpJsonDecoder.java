package io.raglog.calls.otlp;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Decodes {@code otlp_json} messages: the proto3 JSON mapping with OTLP's deviations. Field names are lowerCamelCase
 * (the original snake_case names are accepted too, as the proto3 mapping allows); trace and span ids are hex, not
 * base64; enums are integers (names are accepted too); 64-bit integers such as {@code intValue} and
 * {@code startTimeUnixNano} are decimal strings (plain numbers are accepted too); unknown fields are ignored.
 */
public final class OtlpJsonDecoder implements OtlpDecoder {

    private static final long serialVersionUID = 1L;
    private static final String SERVICE_NAME = "service.name";
    /** What an absent repeated field reads as; never written to. */
    private static final ArrayNode NONE = Json.MAPPER.createArrayNode();

    private final SpanFilter filter;

    public OtlpJsonDecoder() {
        this(SpanFilter.stagesOnly());
    }

    public OtlpJsonDecoder(SpanFilter filter) {
        this.filter = filter;
    }

    @Override
    public String encoding() {
        return OTLP_JSON;
    }

    @Override
    public OtlpDecoding decode(byte[] message) {
        try {
            return OtlpDecoding.fromSpans(readSpans(message), filter);
        } catch (MalformedOtlpException e) {
            return OtlpDecoding.failure(OTLP_JSON + ": " + e.getMessage());
        } catch (RuntimeException e) {
            // A decoder bug must not take the job down; the message goes to the DLQ with the cause.
            return OtlpDecoding.failure(OTLP_JSON + ": decoder failed: " + e);
        }
    }

    List<OtlpSpan> readSpans(byte[] message) throws MalformedOtlpException {
        if (message == null || message.length == 0) {
            throw new MalformedOtlpException("empty message (0 bytes)");
        }
        JsonNode root = parse(message);
        if (!root.isObject()) {
            throw new MalformedOtlpException("expected an ExportTraceServiceRequest object, got " + typeOf(root));
        }
        List<OtlpSpan> spans = new ArrayList<>();
        ArrayNode resourceSpans = array(root, "resourceSpans", "resource_spans", "");
        for (int r = 0; r < resourceSpans.size(); r++) {
            String at = "resourceSpans[" + r + "]";
            JsonNode rs = element(resourceSpans, r, at);
            String service = serviceName(object(rs, "resource", "resource", at), at + ".resource");
            ArrayNode scopeSpans = array(rs, "scopeSpans", "scope_spans", at);
            for (int s = 0; s < scopeSpans.size(); s++) {
                String sat = at + ".scopeSpans[" + s + "]";
                JsonNode ss = element(scopeSpans, s, sat);
                JsonNode scope = object(ss, "scope", "scope", sat);
                String scopeName = scope == null ? "" : string(scope, "name", "name", sat + ".scope");
                ArrayNode list = array(ss, "spans", "spans", sat);
                for (int i = 0; i < list.size(); i++) {
                    String where = sat + ".spans[" + i + "]";
                    spans.add(span(element(list, i, where), service, scopeName == null ? "" : scopeName, where));
                }
            }
        }
        if (spans.isEmpty()) {
            throw new MalformedOtlpException("the ExportTraceServiceRequest holds no spans (empty request)");
        }
        return spans;
    }

    private static JsonNode parse(byte[] message) throws MalformedOtlpException {
        JsonNode root;
        try {
            // the whole message one JSON object; its objects held compactly, as a proxy call's bodies are (issue #27)
            root = JsonTrees.readWhole(message);
        } catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            String at = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
            throw new MalformedOtlpException("not valid JSON" + at + " (" + message.length + " bytes): "
                    + e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedOtlpException("not readable as JSON: " + e.getMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new MalformedOtlpException("no JSON value in " + message.length + " bytes");
        }
        return root;
    }

    private static String serviceName(JsonNode resource, String where) throws MalformedOtlpException {
        if (resource == null) {
            return null;
        }
        ObjectNode attributes = attributes(resource, where);
        JsonNode name = attributes.get(SERVICE_NAME);
        return name != null && name.isTextual() ? name.textValue() : null;
    }

    private static OtlpSpan span(JsonNode span, String service, String scope, String where)
            throws MalformedOtlpException {
        String traceId = OtlpValues.traceId(id(span, "traceId", "trace_id", where), where);
        String spanId = OtlpValues.spanId(id(span, "spanId", "span_id", where), where);
        String parentSpanId = OtlpValues.parentSpanId(id(span, "parentSpanId", "parent_span_id", where), where);
        long start = uint64(span, "startTimeUnixNano", "start_time_unix_nano", where);
        long end = uint64(span, "endTimeUnixNano", "end_time_unix_nano", where);
        OtlpValues.checkTimes(start, end, where);
        String name = string(span, "name", "name", where);
        int kind = enumValue(span, "kind", "kind", where, OtlpValues.SPAN_KINDS);

        JsonNode status = object(span, "status", "status", where);
        int statusCode = status == null ? 0 : enumValue(status, "code", "code", where + ".status", OtlpValues.STATUS_CODES);
        String statusMessage = status == null ? null : string(status, "message", "message", where + ".status");

        ArrayNode eventList = array(span, "events", "events", where);
        List<OtlpSpan.Event> events = new ArrayList<>(eventList.size());
        for (int e = 0; e < eventList.size(); e++) {
            String eat = where + ".events[" + e + "]";
            JsonNode event = element(eventList, e, eat);
            String eventName = string(event, "name", "name", eat);
            events.add(new OtlpSpan.Event(eventName == null ? "" : eventName,
                    uint64(event, "timeUnixNano", "time_unix_nano", eat), attributes(event, eat)));
        }
        return new OtlpSpan(service, scope, traceId, spanId, parentSpanId, name == null ? "" : name, kind, start, end,
                statusCode, statusMessage == null ? "" : statusMessage, attributes(span, where), List.copyOf(events));
    }

    /** The {@code attributes} list of key/value pairs of a span, event or resource, as one JSON object. */
    private static ObjectNode attributes(JsonNode owner, String where) throws MalformedOtlpException {
        return keyValues(array(owner, "attributes", "attributes", where), where + ".attributes");
    }

    /**
     * The pairs as one object. An attribute's location is put in its error's message only when there is an error:
     * built for every attribute of every span, the locations were a tenth of what decoding a message allocated.
     */
    private static ObjectNode keyValues(ArrayNode list, String where) throws MalformedOtlpException {
        ObjectNode object = JsonTrees.objectNode(list.size());
        for (int i = 0; i < list.size(); i++) {
            try {
                JsonNode pair = element(list, i, "");
                String key = string(pair, "key", "key", "");
                if (key == null) {
                    throw new MalformedOtlpException(": attribute without a key");
                }
                object.set(key, anyValue(field(pair, "value", "value"), ".value"));
            } catch (MalformedOtlpException e) {
                throw e.under(where + "[" + i + "]");
            }
        }
        return object;
    }

    /** An {@code AnyValue} as typed JSON; the oneof names its type, an empty one is null. */
    private static JsonNode anyValue(JsonNode value, String where) throws MalformedOtlpException {
        if (value == null || value.isNull()) {
            return NullNode.getInstance();
        }
        if (!value.isObject()) {
            throw new MalformedOtlpException(where + ": expected an AnyValue object, got " + typeOf(value));
        }
        JsonNode v;
        if ((v = field(value, "stringValue", "string_value")) != null) {
            if (!v.isTextual()) {
                throw new MalformedOtlpException(where + ".stringValue: expected a string, got " + typeOf(v));
            }
            return v;
        }
        if ((v = field(value, "boolValue", "bool_value")) != null) {
            if (!v.isBoolean()) {
                throw new MalformedOtlpException(where + ".boolValue: expected true or false, got " + typeOf(v));
            }
            return BooleanNode.valueOf(v.booleanValue());
        }
        if ((v = field(value, "intValue", "int_value")) != null) {
            return OtlpValues.integer(int64(v, where + ".intValue"));
        }
        if ((v = field(value, "doubleValue", "double_value")) != null) {
            return DoubleNode.valueOf(double64(v, where + ".doubleValue"));
        }
        if ((v = field(value, "arrayValue", "array_value")) != null) {
            ArrayNode elements = array(v, "values", "values", where + ".arrayValue");
            ArrayNode array = Json.MAPPER.createArrayNode();
            for (int i = 0; i < elements.size(); i++) {
                array.add(anyValue(elements.get(i), where + ".arrayValue.values[" + i + "]"));
            }
            return array;
        }
        if ((v = field(value, "kvlistValue", "kvlist_value")) != null) {
            return keyValues(array(v, "values", "values", where + ".kvlistValue"), where + ".kvlistValue.values");
        }
        if ((v = field(value, "bytesValue", "bytes_value")) != null) {
            if (!v.isTextual()) {
                throw new MalformedOtlpException(where + ".bytesValue: expected a base64 string, got " + typeOf(v));
            }
            try {
                return TextNode.valueOf(Base64.getEncoder().encodeToString(Base64.getDecoder().decode(v.textValue())));
            } catch (IllegalArgumentException e) {
                throw new MalformedOtlpException(where + ".bytesValue: not base64: " + e.getMessage());
            }
        }
        return NullNode.getInstance();
    }

    /**
     * Trace and span ids are hex in OTLP/JSON. Some exporters use protobuf's stock JSON mapping and send base64
     * instead; the lengths cannot be confused (32 hex digits vs 24 base64 characters for a trace id), so those are
     * read too rather than lost.
     */
    private static byte[] id(JsonNode owner, String camel, String snake, String where) throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value == null) {
            return new byte[0];
        }
        if (!value.isTextual()) {
            throw new MalformedOtlpException(where + "." + camel + ": expected a hex string, got " + typeOf(value));
        }
        String text = value.textValue().strip();
        if (text.length() % 2 == 0 && isHex(text)) {
            return HexFormat.of().parseHex(text);
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedOtlpException(where + "." + camel + ": not a hex id: \"" + abbreviate(text) + "\"");
        }
    }

    private static boolean isHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** An unsigned {@code fixed64} such as a timestamp: a decimal string, or a plain JSON integer. 0 when absent. */
    private static long uint64(JsonNode owner, String camel, String snake, String where)
            throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value == null) {
            return 0;
        }
        String at = where + "." + camel;
        if (value.isIntegralNumber() && value.canConvertToLong() && value.longValue() >= 0) {
            return value.longValue();
        }
        if (value.isTextual()) {
            try {
                return Long.parseUnsignedLong(value.textValue().strip());
            } catch (NumberFormatException e) {
                throw new MalformedOtlpException(at + ": not an unsigned integer: \"" + abbreviate(value.textValue())
                        + "\"");
            }
        }
        throw new MalformedOtlpException(at + ": expected an integer string, got " + typeOf(value));
    }

    private static long int64(JsonNode value, String where) throws MalformedOtlpException {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isTextual()) {
            try {
                return Long.parseLong(value.textValue().strip());
            } catch (NumberFormatException e) {
                throw new MalformedOtlpException(where + ": not an integer: \"" + abbreviate(value.textValue()) + "\"");
            }
        }
        throw new MalformedOtlpException(where + ": expected an integer string, got " + typeOf(value));
    }

    /** A double: a JSON number, or one of the strings the proto3 mapping allows ("NaN", "Infinity", "1.5"). */
    private static double double64(JsonNode value, String where) throws MalformedOtlpException {
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.textValue().strip());
            } catch (NumberFormatException e) {
                throw new MalformedOtlpException(where + ": not a number: \"" + abbreviate(value.textValue()) + "\"");
            }
        }
        throw new MalformedOtlpException(where + ": expected a number, got " + typeOf(value));
    }

    /** An enum: an integer as OTLP/JSON requires, or the value's name as the stock proto3 mapping writes it. */
    private static int enumValue(JsonNode owner, String camel, String snake, String where, String[] names)
            throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value == null) {
            return 0;
        }
        if (value.isIntegralNumber() && value.canConvertToInt() && value.intValue() >= 0) {
            return value.intValue();
        }
        if (value.isTextual()) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(value.textValue())) {
                    return i;
                }
            }
        }
        throw new MalformedOtlpException(where + "." + camel + ": not a " + camel + " value: " + abbreviate(value.toString()));
    }

    private static String string(JsonNode owner, String camel, String snake, String where)
            throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw new MalformedOtlpException(where + "." + camel + ": expected a string, got " + typeOf(value));
        }
        return value.textValue();
    }

    private static JsonNode object(JsonNode owner, String camel, String snake, String where)
            throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value != null && !value.isObject()) {
            throw new MalformedOtlpException(where + "." + camel + ": expected an object, got " + typeOf(value));
        }
        return value;
    }

    /** A repeated field; absent reads as empty, as proto3 omits empty lists. */
    private static ArrayNode array(JsonNode owner, String camel, String snake, String where)
            throws MalformedOtlpException {
        JsonNode value = field(owner, camel, snake);
        if (value == null) {
            return NONE;
        }
        if (!value.isArray()) {
            String at = where.isEmpty() ? camel : where + "." + camel;
            throw new MalformedOtlpException(at + ": expected an array, got " + typeOf(value));
        }
        return (ArrayNode) value;
    }

    private static JsonNode element(ArrayNode array, int index, String where) throws MalformedOtlpException {
        JsonNode element = array.get(index);
        if (!element.isObject()) {
            throw new MalformedOtlpException(where + ": expected an object, got " + typeOf(element));
        }
        return element;
    }

    /** The field under its JSON name or its proto name; JSON null reads as absent, as proto3 defines. */
    private static JsonNode field(JsonNode owner, String camel, String snake) {
        JsonNode value = owner.get(camel);
        if ((value == null || value.isNull()) && !camel.equals(snake)) {
            value = owner.get(snake);
        }
        return value == null || value.isNull() ? null : value;
    }

    private static String typeOf(JsonNode value) {
        return value.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}

package io.raglog.calls.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Decodes {@code otlp_proto} messages (the kafka exporter's default) through the generated OTLP classes.
 */
public final class OtlpProtoDecoder implements OtlpDecoder {

    private static final long serialVersionUID = 1L;
    private static final String SERVICE_NAME = "service.name";

    private final SpanFilter filter;

    public OtlpProtoDecoder() {
        this(SpanFilter.stagesOnly());
    }

    public OtlpProtoDecoder(SpanFilter filter) {
        this.filter = filter;
    }

    @Override
    public String encoding() {
        return OTLP_PROTO;
    }

    @Override
    public OtlpDecoding decode(byte[] message) {
        try {
            return OtlpDecoding.fromSpans(readSpans(message), filter);
        } catch (MalformedOtlpException e) {
            return OtlpDecoding.failure(OTLP_PROTO + ": " + e.getMessage());
        } catch (RuntimeException e) {
            // A decoder bug must not take the job down; the message goes to the DLQ with the cause.
            return OtlpDecoding.failure(OTLP_PROTO + ": decoder failed: " + e);
        }
    }

    List<OtlpSpan> readSpans(byte[] message) throws MalformedOtlpException {
        if (message == null || message.length == 0) {
            throw new MalformedOtlpException("empty message (0 bytes)");
        }
        ExportTraceServiceRequest request;
        try {
            request = ExportTraceServiceRequest.parseFrom(message);
        } catch (InvalidProtocolBufferException e) {
            throw new MalformedOtlpException("not a protobuf ExportTraceServiceRequest (" + message.length + " bytes): "
                    + e.getMessage());
        }
        List<OtlpSpan> spans = new ArrayList<>();
        for (int r = 0; r < request.getResourceSpansCount(); r++) {
            ResourceSpans resourceSpans = request.getResourceSpans(r);
            String service = serviceName(resourceSpans.getResource());
            for (int s = 0; s < resourceSpans.getScopeSpansCount(); s++) {
                ScopeSpans scopeSpans = resourceSpans.getScopeSpans(s);
                String scope = scopeSpans.getScope().getName();
                for (int i = 0; i < scopeSpans.getSpansCount(); i++) {
                    String where = "resourceSpans[" + r + "].scopeSpans[" + s + "].spans[" + i + "]";
                    spans.add(span(scopeSpans.getSpans(i), service, scope, where));
                }
            }
        }
        if (spans.isEmpty()) {
            // Protobuf reads arbitrary bytes that happen to be well-formed as unknown fields of an empty request.
            throw new MalformedOtlpException("the ExportTraceServiceRequest holds no spans (" + message.length
                    + " bytes: an empty request, or bytes of some other message)");
        }
        return spans;
    }

    private static String serviceName(Resource resource) {
        for (KeyValue attribute : resource.getAttributesList()) {
            if (SERVICE_NAME.equals(attribute.getKey()) && attribute.getValue().hasStringValue()) {
                return attribute.getValue().getStringValue();
            }
        }
        return null;
    }

    private static OtlpSpan span(Span span, String service, String scope, String where)
            throws MalformedOtlpException {
        String traceId = OtlpValues.traceId(span.getTraceId().toByteArray(), where);
        String spanId = OtlpValues.spanId(span.getSpanId().toByteArray(), where);
        String parentSpanId = OtlpValues.parentSpanId(span.getParentSpanId().toByteArray(), where);
        OtlpValues.checkTimes(span.getStartTimeUnixNano(), span.getEndTimeUnixNano(), where);
        List<OtlpSpan.Event> events = new ArrayList<>(span.getEventsCount());
        for (Span.Event event : span.getEventsList()) {
            events.add(new OtlpSpan.Event(event.getName(), event.getTimeUnixNano(), attributes(event.getAttributesList())));
        }
        return new OtlpSpan(service, scope, traceId, spanId, parentSpanId, span.getName(), span.getKindValue(),
                span.getStartTimeUnixNano(), span.getEndTimeUnixNano(), span.getStatus().getCodeValue(),
                span.getStatus().getMessage(), attributes(span.getAttributesList()), List.copyOf(events));
    }

    /** Held as the JSON decoder holds them, compactly ({@link JsonTrees#objectNode}). */
    private static ObjectNode attributes(List<KeyValue> attributes) {
        ObjectNode object = JsonTrees.objectNode(attributes.size());
        for (KeyValue attribute : attributes) {
            object.set(attribute.getKey(), value(attribute.getValue()));
        }
        return object;
    }

    private static JsonNode value(AnyValue value) {
        switch (value.getValueCase()) {
            case STRING_VALUE:
                return TextNode.valueOf(value.getStringValue());
            case BOOL_VALUE:
                return BooleanNode.valueOf(value.getBoolValue());
            case INT_VALUE:
                return OtlpValues.integer(value.getIntValue());
            case DOUBLE_VALUE:
                return DoubleNode.valueOf(value.getDoubleValue());
            case ARRAY_VALUE:
                ArrayNode array = Json.MAPPER.createArrayNode();
                for (AnyValue element : value.getArrayValue().getValuesList()) {
                    array.add(value(element));
                }
                return array;
            case KVLIST_VALUE:
                return attributes(value.getKvlistValue().getValuesList());
            case BYTES_VALUE:
                return TextNode.valueOf(Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray()));
            default:
                return NullNode.getInstance();
        }
    }
}

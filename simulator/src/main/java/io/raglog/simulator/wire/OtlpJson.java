package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * OTLP/JSON as the Collector's kafka exporter writes it with {@code otlp_json}: one ExportTraceServiceRequest,
 * lowerCamelCase fields, trace and span ids as hex, enums as integers, 64-bit integers as strings.
 */
public final class OtlpJson {

    /** SPAN_KIND_INTERNAL: OpenInference instrumentations mark every span internal. */
    private static final int SPAN_KIND_INTERNAL = 1;

    private OtlpJson() {}

    /** @param spans all of one service (the exporter batches per SDK, i.e. per pipeline process) */
    public static ObjectNode exportRequest(String serviceName, String scopeName, String scopeVersion,
            List<OtlpSpan> spans) {
        ObjectNode root = Nodes.object();
        ObjectNode resourceSpans = root.putArray("resourceSpans").addObject();
        ArrayNode resourceAttributes = resourceSpans.putObject("resource").putArray("attributes");
        attribute(resourceAttributes, "service.name", serviceName);
        attribute(resourceAttributes, "telemetry.sdk.language", "python");
        attribute(resourceAttributes, "telemetry.sdk.name", "opentelemetry");
        attribute(resourceAttributes, "telemetry.sdk.version", "1.33.1");
        ObjectNode scopeSpans = resourceSpans.putArray("scopeSpans").addObject();
        scopeSpans.putObject("scope").put("name", scopeName).put("version", scopeVersion);
        ArrayNode out = scopeSpans.putArray("spans");
        for (OtlpSpan span : spans) {
            ObjectNode s = out.addObject().put("traceId", span.traceId()).put("spanId", span.spanId());
            if (span.parentSpanId() != null) {
                s.put("parentSpanId", span.parentSpanId());
            }
            s.put("flags", 256).put("name", span.name()).put("kind", SPAN_KIND_INTERNAL)
                    .put("startTimeUnixNano", nanos(span.start())).put("endTimeUnixNano", nanos(span.end()));
            ArrayNode attrs = s.putArray("attributes");
            for (Map.Entry<String, Object> e : span.attributes().entrySet()) {
                attribute(attrs, e.getKey(), e.getValue());
            }
            s.putObject("status").put("code", 1);
        }
        resourceSpans.put("schemaUrl", "");
        return root;
    }

    private static void attribute(ArrayNode attrs, String key, Object value) {
        ObjectNode a = attrs.addObject().put("key", key);
        ObjectNode v = a.putObject("value");
        if (value instanceof Long) {
            v.put("intValue", value.toString());
        } else if (value instanceof Integer) {
            v.put("intValue", value.toString());
        } else if (value instanceof Double) {
            v.put("doubleValue", (Double) value);
        } else if (value instanceof Boolean) {
            v.put("boolValue", (Boolean) value);
        } else {
            v.put("stringValue", String.valueOf(value));
        }
    }

    static String nanos(Instant t) {
        return Long.toString(t.getEpochSecond() * 1_000_000_000L + t.getNano());
    }
}

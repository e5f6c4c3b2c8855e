package io.raglog.calls.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;

/**
 * The test traces, as the Collector's kafka exporter would write them in either encoding. The protobuf form is built
 * with the generated OTLP builders from the OTLP/JSON fixture, field by field, so one trace exists in both encodings
 * without a committed binary.
 */
final class OtlpFixtures {

    static final String OPENINFERENCE_TRACE = "openinference-llamaindex-rag.json";
    /** The same trace with LlamaIndex's LLMRerank for Cohere: its reranker span holds the chat call that ranked. */
    static final String OPENINFERENCE_LLM_RERANK_TRACE = "openinference-llamaindex-llm-rerank.json";
    static final String GENAI_TRACE = "genai-semconv-rag.json";
    static final String LANGFUSE_TRACE = "langfuse-langchain-rag.json";
    static final String MLFLOW_TRACE = "mlflow-langchain-rag.json";

    private OtlpFixtures() {}

    static byte[] json(String fixture) {
        try (InputStream in = OtlpFixtures.class.getResourceAsStream("/otlp/" + fixture)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture /otlp/" + fixture);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] proto(String fixture) {
        return toProto(json(fixture)).toByteArray();
    }

    static ExportTraceServiceRequest toProto(byte[] otlpJson) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(otlpJson);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExportTraceServiceRequest.Builder request = ExportTraceServiceRequest.newBuilder();
        for (JsonNode rs : root.path("resourceSpans")) {
            ResourceSpans.Builder resourceSpans = ResourceSpans.newBuilder()
                    .setSchemaUrl(rs.path("schemaUrl").asText(""));
            Resource.Builder resource = Resource.newBuilder();
            for (JsonNode attribute : rs.path("resource").path("attributes")) {
                resource.addAttributes(keyValue(attribute));
            }
            resourceSpans.setResource(resource);
            for (JsonNode ss : rs.path("scopeSpans")) {
                ScopeSpans.Builder scopeSpans = ScopeSpans.newBuilder().setScope(InstrumentationScope.newBuilder()
                        .setName(ss.path("scope").path("name").asText(""))
                        .setVersion(ss.path("scope").path("version").asText("")));
                for (JsonNode span : ss.path("spans")) {
                    scopeSpans.addSpans(span(span));
                }
                resourceSpans.addScopeSpans(scopeSpans);
            }
            request.addResourceSpans(resourceSpans);
        }
        return request.build();
    }

    private static Span span(JsonNode json) {
        Span.Builder span = Span.newBuilder()
                .setTraceId(hex(json.path("traceId").asText()))
                .setSpanId(hex(json.path("spanId").asText()))
                .setParentSpanId(hex(json.path("parentSpanId").asText("")))
                .setFlags(json.path("flags").asInt())
                .setName(json.path("name").asText())
                .setKindValue(json.path("kind").asInt())
                .setStartTimeUnixNano(Long.parseUnsignedLong(json.path("startTimeUnixNano").asText()))
                .setEndTimeUnixNano(Long.parseUnsignedLong(json.path("endTimeUnixNano").asText()))
                .setStatus(Status.newBuilder()
                        .setCodeValue(json.path("status").path("code").asInt(0))
                        .setMessage(json.path("status").path("message").asText("")));
        for (JsonNode attribute : json.path("attributes")) {
            span.addAttributes(keyValue(attribute));
        }
        for (JsonNode event : json.path("events")) {
            Span.Event.Builder e = Span.Event.newBuilder()
                    .setName(event.path("name").asText())
                    .setTimeUnixNano(Long.parseUnsignedLong(event.path("timeUnixNano").asText()));
            for (JsonNode attribute : event.path("attributes")) {
                e.addAttributes(keyValue(attribute));
            }
            span.addEvents(e);
        }
        return span.build();
    }

    private static KeyValue keyValue(JsonNode json) {
        return KeyValue.newBuilder().setKey(json.path("key").asText()).setValue(anyValue(json.path("value"))).build();
    }

    private static AnyValue anyValue(JsonNode json) {
        AnyValue.Builder value = AnyValue.newBuilder();
        if (json.has("stringValue")) {
            value.setStringValue(json.get("stringValue").asText());
        } else if (json.has("boolValue")) {
            value.setBoolValue(json.get("boolValue").asBoolean());
        } else if (json.has("intValue")) {
            value.setIntValue(Long.parseLong(json.get("intValue").asText()));
        } else if (json.has("doubleValue")) {
            value.setDoubleValue(json.get("doubleValue").asDouble());
        } else if (json.has("arrayValue")) {
            ArrayValue.Builder array = ArrayValue.newBuilder();
            for (JsonNode element : json.get("arrayValue").path("values")) {
                array.addValues(anyValue(element));
            }
            value.setArrayValue(array);
        } else if (json.has("kvlistValue")) {
            KeyValueList.Builder list = KeyValueList.newBuilder();
            for (JsonNode pair : json.get("kvlistValue").path("values")) {
                list.addValues(keyValue(pair));
            }
            value.setKvlistValue(list);
        } else if (json.has("bytesValue")) {
            value.setBytesValue(ByteString.copyFrom(java.util.Base64.getDecoder().decode(json.get("bytesValue").asText())));
        }
        return value.build();
    }

    private static ByteString hex(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }
}

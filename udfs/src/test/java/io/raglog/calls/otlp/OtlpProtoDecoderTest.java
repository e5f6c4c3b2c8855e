package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.OtlpFixtures.GENAI_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.LANGFUSE_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.MLFLOW_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.OPENINFERENCE_TRACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.raglog.schemas.CallEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OtlpProtoDecoderTest {

    private final OtlpProtoDecoder proto = new OtlpProtoDecoder();
    private final OtlpJsonDecoder json = new OtlpJsonDecoder();

    @ParameterizedTest
    @ValueSource(strings = {OPENINFERENCE_TRACE, GENAI_TRACE, LANGFUSE_TRACE, MLFLOW_TRACE})
    void shouldDecodeTheSameTraceToIdenticalCallsWhateverTheEncoding(String fixture) {
        OtlpDecoding fromJson = json.decode(OtlpFixtures.json(fixture));
        OtlpDecoding fromProto = proto.decode(OtlpFixtures.proto(fixture));

        assertThat(fromProto.failed()).as(fromProto.error()).isFalse();
        assertThat(fromProto.calls()).isNotEmpty();
        assertThat(fromProto.calls()).isEqualTo(fromJson.calls());
        assertThat(fromProto.spans()).isEqualTo(fromJson.spans());
        assertThat(fromProto.droppedNotStage()).isEqualTo(fromJson.droppedNotStage());
    }

    @Test
    void shouldTypeStringEncodedJsonIntsAsTheProtobufInts() {
        CallEvent fromJson = json.decode(OtlpFixtures.json(OPENINFERENCE_TRACE)).calls().get(4);
        CallEvent fromProto = proto.decode(OtlpFixtures.proto(OPENINFERENCE_TRACE)).calls().get(4);

        assertThat(fromProto.request().body().get("llm.token_count.prompt"))
                .isEqualTo(fromJson.request().body().get("llm.token_count.prompt"));
        assertThat(fromProto.request().body().get("llm.token_count.prompt").intValue()).isEqualTo(431);
        assertThat(fromProto.startedAt()).isEqualTo(fromJson.startedAt());
    }

    @Test
    void shouldExplainBytesThatAreNotAProtobufMessage() {
        byte[] garbage = new byte[512];
        new Random(42).nextBytes(garbage);

        OtlpDecoding decoding = proto.decode(garbage);

        assertThat(decoding.failed()).isTrue();
        assertThat(decoding.calls()).isEmpty();
        assertThat(decoding.error()).startsWith("otlp_proto: ");
        assertThat(decoding.error()).satisfiesAnyOf(
                e -> assertThat(e).contains("not a protobuf ExportTraceServiceRequest (512 bytes)"),
                e -> assertThat(e).contains("holds no spans"));
    }

    @Test
    void shouldExplainATruncatedMessage() {
        byte[] whole = OtlpFixtures.proto(GENAI_TRACE);

        OtlpDecoding decoding = proto.decode(Arrays.copyOf(whole, whole.length - 100));

        assertThat(decoding.error()).startsWith("otlp_proto: not a protobuf ExportTraceServiceRequest ("
                + (whole.length - 100) + " bytes): ").contains("truncated");
    }

    @Test
    void shouldExplainAJsonMessageOnTheProtobufTopic() {
        OtlpDecoding decoding = proto.decode(OtlpFixtures.json(GENAI_TRACE));

        assertThat(decoding.failed()).isTrue();
        assertThat(decoding.error()).startsWith("otlp_proto: ");
    }

    @Test
    void shouldCallAnEmptyRequestAnError() {
        // An empty request encodes to no bytes at all.
        assertThat(ExportTraceServiceRequest.getDefaultInstance().toByteArray()).isEmpty();
        assertThat(proto.decode(new byte[0]).error()).isEqualTo("otlp_proto: empty message (0 bytes)");

        byte[] noSpans = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.getDefaultInstance()))
                .build().toByteArray();
        assertThat(proto.decode(noSpans).error()).startsWith("otlp_proto: the ExportTraceServiceRequest holds no spans");
    }

    @Test
    void shouldRejectIdsOfTheWrongLength() {
        ExportTraceServiceRequest.Builder request = OtlpFixtures.toProto(OtlpFixtures.json(GENAI_TRACE)).toBuilder();
        request.getResourceSpansBuilder(0).getScopeSpansBuilder(2).getSpansBuilder(1)
                .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3}));

        assertThat(proto.decode(request.build().toByteArray()).error())
                .isEqualTo("otlp_proto: resourceSpans[0].scopeSpans[2].spans[1].traceId: expected 16 bytes, got 3");
    }

    @Test
    void shouldRejectASpanWithoutTimes() {
        ExportTraceServiceRequest.Builder request = OtlpFixtures.toProto(OtlpFixtures.json(GENAI_TRACE)).toBuilder();
        request.getResourceSpansBuilder(0).getScopeSpansBuilder(0).getSpansBuilder(0).clearEndTimeUnixNano();

        assertThat(proto.decode(request.build().toByteArray()).error())
                .isEqualTo("otlp_proto: resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano:"
                        + " missing or out of range");
    }

    @Test
    void shouldDecodeTheSameAfterJavaSerialization() throws Exception {
        // A Flink deserialization schema ships its decoder to the task managers by Java serialization.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(proto);
        }
        OtlpDecoder shipped;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            shipped = (OtlpDecoder) in.readObject();
        }

        assertThat(shipped.decode(OtlpFixtures.proto(GENAI_TRACE)))
                .isEqualTo(proto.decode(OtlpFixtures.proto(GENAI_TRACE)));
    }

    @Test
    void shouldPickTheDecoderOfTheExportersEncoding() {
        SpanFilter filter = SpanFilter.stagesOnly();

        assertThat(OtlpDecoder.forEncoding("otlp_proto", filter)).isInstanceOf(OtlpProtoDecoder.class);
        assertThat(OtlpDecoder.forEncoding("OTLP_JSON", filter)).isInstanceOf(OtlpJsonDecoder.class);
        assertThatThrownBy(() -> OtlpDecoder.forEncoding("jaeger_proto", filter))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported OTLP encoding 'jaeger_proto'");
    }
}

package io.raglog.calls.otlp;

import java.io.Serializable;
import java.util.Locale;

/**
 * Reads one Kafka message of {@code raglog.otlp}: one {@code ExportTraceServiceRequest}, as the OpenTelemetry
 * Collector's kafka exporter writes it. Knows nothing of Flink, so decoding is tested without it.
 */
public interface OtlpDecoder extends Serializable {

    /** The kafka exporter's {@code encoding} values this decoder family reads. */
    String OTLP_PROTO = "otlp_proto";
    String OTLP_JSON = "otlp_json";

    /** The exporter {@code encoding} this decoder reads. */
    String encoding();

    /**
     * Never throws: a message that cannot be decoded at all comes back as {@link OtlpDecoding#failed()} with a reason
     * fit for the dead-letter topic.
     */
    OtlpDecoding decode(byte[] message);

    /**
     * @param encoding the Collector kafka exporter's {@code encoding} setting
     * @throws IllegalArgumentException for any other encoding, at configuration time rather than per message
     */
    static OtlpDecoder forEncoding(String encoding, SpanFilter filter) {
        String name = encoding == null ? "" : encoding.strip().toLowerCase(Locale.ROOT);
        if (OTLP_PROTO.equals(name)) {
            return new OtlpProtoDecoder(filter);
        }
        if (OTLP_JSON.equals(name)) {
            return new OtlpJsonDecoder(filter);
        }
        throw new IllegalArgumentException("unsupported OTLP encoding '" + encoding + "': set the Collector's kafka"
                + " exporter encoding to " + OTLP_PROTO + " (its default) or " + OTLP_JSON);
    }
}

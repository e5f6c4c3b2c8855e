package io.raglog.simulator.wire;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One finished span as an OpenTelemetry SDK hands it to the exporter.
 *
 * @param parentSpanId hex, null for a root span
 * @param attributes in the order the instrumentation set them; values are String, Long, Double or Boolean
 */
public record OtlpSpan(String serviceName, String traceId, String spanId, String parentSpanId, String name,
        Instant start, Instant end, Map<String, Object> attributes) {

    /** Builds a span's attributes in order. */
    public static final class Attributes {
        private final Map<String, Object> values = new LinkedHashMap<>();

        public Attributes put(String key, String value) {
            if (value != null) {
                values.put(key, value);
            }
            return this;
        }

        public Attributes put(String key, long value) {
            values.put(key, value);
            return this;
        }

        public Attributes put(String key, double value) {
            values.put(key, value);
            return this;
        }

        public Map<String, Object> build() {
            return values;
        }
    }
}

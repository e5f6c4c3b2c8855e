package io.raglog.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one benchmark run as flat keys (numbers, or a text for what is not a number), in the order they
 * were measured, each with a one-line note for the markdown table.
 */
public final class BenchResults {

    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, String> notes = new LinkedHashMap<>();

    public BenchResults put(String key, double value, String note) {
        values.put(key, Double.isFinite(value) ? round(value) : null);
        notes.put(key, note);
        return this;
    }

    public BenchResults put(String key, String value, String note) {
        values.put(key, value);
        notes.put(key, note);
        return this;
    }

    public BenchResults putAll(BenchResults other) {
        values.putAll(other.values);
        notes.putAll(other.notes);
        return this;
    }

    public Map<String, Object> values() {
        return java.util.Collections.unmodifiableMap(values);
    }

    public Double number(String key) {
        Object v = values.get(key);
        return v instanceof Number n ? n.doubleValue() : null;
    }

    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        values.forEach((k, v) -> {
            if (v == null) {
                node.putNull(k);
            } else if (v instanceof Number n) {
                node.put(k, n.doubleValue());
            } else {
                node.put(k, v.toString());
            }
        });
        return node;
    }

    public String toMarkdown() {
        StringBuilder md = new StringBuilder("| key | value | what |\n|---|---:|---|\n");
        values.forEach((k, v) -> md.append("| `").append(k).append("` | ").append(format(v)).append(" | ")
                .append(notes.getOrDefault(k, "")).append(" |\n"));
        return md.toString();
    }

    private static String format(Object v) {
        if (v == null) {
            return "n/a";
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.format(Locale.ROOT, "%,d", (long) d);
            }
            return Math.abs(d) >= 100 ? String.format(Locale.ROOT, "%,.1f", d)
                    : String.format(Locale.ROOT, "%.4g", d);
        }
        return v.toString();
    }

    /** Four significant digits are more than any of these measurements carries. */
    private static double round(double v) {
        if (v == 0) {
            return 0;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).doubleValue();
    }
}

package io.raglog.llm;

import java.io.Serializable;
import java.util.Objects;

/**
 * An API key. Its {@code toString} never shows it, so it cannot leak through a log line, an exception message or a
 * record's generated {@code toString}; only the HTTP layer calls {@link #reveal()}.
 */
public final class Secret implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String MASK = "****";

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    /** Null or blank becomes null: "no key" is not a key. */
    public static Secret of(String value) {
        return value == null || value.isBlank() ? null : new Secret(value.strip());
    }

    public String reveal() {
        return value;
    }

    /** Replaces the key wherever it appears in a text that is about to leave (an upstream error body, say). */
    public String redact(String text) {
        return text == null ? null : text.replace(value, MASK);
    }

    @Override
    public String toString() {
        return MASK;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret other && other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value);
    }
}

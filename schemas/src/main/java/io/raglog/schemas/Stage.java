package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The stages of a RAG run, in pipeline order. Rewrite, rerank and assemble are optional; assemble (what of the passages
 * handed on reached the generator's prompt) is present when a run shows both what was handed on and the prompt.
 */
public enum Stage {
    REWRITE, EMBED, RETRIEVE, RERANK, ASSEMBLE, GENERATE;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Stage of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }

    public boolean optional() {
        return this == REWRITE || this == RERANK || this == ASSEMBLE;
    }
}

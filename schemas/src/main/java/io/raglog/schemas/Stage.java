package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The five stages of a RAG run, in pipeline order. Rewrite and rerank are optional. */
public enum Stage {
    REWRITE, EMBED, RETRIEVE, RERANK, GENERATE;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Stage of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }

    public boolean optional() {
        return this == REWRITE || this == RERANK;
    }
}

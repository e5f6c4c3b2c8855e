package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What the answer did with a needed piece of information. */
public enum AnswerUse {
    INCLUDED, OMITTED, CONTRADICTED;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}

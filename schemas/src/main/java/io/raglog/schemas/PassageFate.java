package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What context assembly did with one passage handed on.
 *
 * @param passageId the passage's id as the stage that handed it on gave it
 * @param handedRank its 1-based place in what was handed on
 * @param fate whole, cut (only its first {@code keptChars} characters reached the prompt) or dropped
 * @param promptPosition its 1-based place among the passages in the prompt; null when dropped
 * @param chars the passage's length in characters
 * @param keptChars how many of them reached the prompt
 */
public record PassageFate(String passageId, int handedRank, Fate fate, Integer promptPosition, int chars,
        int keptChars) {

    public enum Fate {
        WHOLE, CUT, DROPPED;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}

package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What context assembly did with one passage handed on.
 *
 * @param passageId the passage's id as the stage that handed it on gave it
 * @param handedRank its 1-based place in what was handed on
 * @param fate whole, cut (only its first {@code keptChars} characters reached the prompt), extracted (pieces of it,
 *     {@code keptChars} characters in all, reached the prompt on their own: a contextual compressor kept what of it it
 *     found relevant; the pieces are the run's context passages under its id) or dropped
 * @param promptPosition its 1-based place among the passages in the prompt; null when dropped
 * @param chars the passage's length in characters
 * @param keptChars how many of them reached the prompt
 */
public record PassageFate(String passageId, int handedRank, Fate fate, Integer promptPosition, int chars,
        int keptChars) {

    /**
     * The part of {@code text} that reached the prompt: none when dropped, all when whole, the opening when cut. Not
     * for an extracted passage, whose pieces are its context passages: the share of it they make, from its opening.
     */
    public String keptText(String text) {
        return keptPart(text == null ? "" : text, keptChars, chars);
    }

    /** The part of {@code text} that was cut or dropped before the prompt. */
    public String lostText(String text) {
        String t = text == null ? "" : text;
        return t.substring(keptPart(t, keptChars, chars).length());
    }

    /**
     * The opening of {@code text} as large a share of it as {@code keptChars} is of {@code chars}: lengths measured
     * on the normalised texts (whitespace collapsed) map back to the text as logged.
     */
    public static String keptPart(String text, int keptChars, int chars) {
        double share = chars == 0 ? 0 : (double) keptChars / chars;
        return text.substring(0, Math.min(text.length(), (int) Math.round(share * text.length())));
    }

    public enum Fate {
        WHOLE, CUT, EXTRACTED, DROPPED;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}

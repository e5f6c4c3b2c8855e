package io.raglog.llm;

import java.util.Locale;

/**
 * How many LLM checks a run gets.
 *
 * <ul>
 *   <li>{@code default}: all of them (five calls when every stage is present);</li>
 *   <li>{@code economy}: all but the statement-by-statement support check;</li>
 *   <li>{@code tiered}: none for the runs the model bundle's tier gate decides from the cheap checks (every stage
 *       clearly healthy, or one clearly faulty), all of them for the others. A bundle without a gate runs untiered.</li>
 * </ul>
 */
public enum LlmMode {
    DEFAULT, ECONOMY, TIERED;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static LlmMode parse(String value) {
        for (LlmMode m : values()) {
            if (m.id().equalsIgnoreCase(value.strip())) {
                return m;
            }
        }
        throw new IllegalArgumentException("LLM mode must be default, economy or tiered, not '" + value + "'");
    }
}

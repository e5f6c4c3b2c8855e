package io.raglog.schemas;

/**
 * One short, human-readable result of a check, about one stage.
 *
 * @param check the check that found it, e.g. {@code rewrite.lost_terms} or {@code llm.retrieval}
 * @param text e.g. "rewrite dropped the date '2023'"
 * @param fact what the text states, as data, so that the same fact found by several checks is told once; null when
 *     the check gave only text (a model's own words, features written before facts existed)
 */
public record Finding(Stage stage, String check, String text, Fact fact) {

    public Finding(Stage stage, String check, String text) {
        this(stage, check, text, null);
    }

    /** A finding about its fact's stage. */
    public static Finding of(String check, Fact fact, String text) {
        return new Finding(fact.stage(), check, text, fact);
    }
}

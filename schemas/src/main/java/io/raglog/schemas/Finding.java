package io.raglog.schemas;

/**
 * One short, human-readable result of a check, about one stage.
 *
 * @param check the check that found it, e.g. {@code rewrite.lost_terms} or {@code llm.retrieval}
 * @param text e.g. "rewrite dropped the date '2023'"
 */
public record Finding(Stage stage, String check, String text) {}

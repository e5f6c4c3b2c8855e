package io.raglog.schemas;

import java.util.List;
import java.util.Locale;

/**
 * What a finding is about, as data: the same fact found by several checks (the rules, the vectors, the LLM judge) has
 * one identity, {@link #key()}, so a verdict states it once and says which checks agree.
 *
 * @param stage the stage the fact is about (the evidence-flow check speaks about retrieval and the reranker too)
 * @param kind what kind of fact it is
 * @param subject what it is about, in the normalised form every check writes alike: {@code name:japanese} for a key
 *     term ({@link #term}), {@link #ANSWER} for the answer to the question, a lower-cased word or statement; empty
 *     when a stage has only one fact of the kind
 * @param passageIds the passages the fact points to (empty when none)
 */
public record Fact(Stage stage, FactKind kind, String subject, List<String> passageIds) {

    /** The subject of facts about the answer to the question itself. */
    public static final String ANSWER = "answer";

    public Fact {
        subject = subject == null ? "" : subject;
        passageIds = passageIds == null ? List.of() : List.copyOf(passageIds);
    }

    public static Fact of(Stage stage, FactKind kind, String subject) {
        return new Fact(stage, kind, subject, List.of());
    }

    public Fact withPassages(List<String> ids) {
        return new Fact(stage, kind, subject, ids);
    }

    /** The subject of a name, number or date: its kind and its compared form, e.g. {@code date:2023}. */
    public static String term(String kindLabel, String norm) {
        return kindLabel + ":" + norm;
    }

    /** The subject of a word put in place of another: both words, lower case. */
    public static String changed(String from, String to) {
        return text(from) + ">" + text(to);
    }

    /** The subject of free text: lower case, single spaces, so that wording alone decides. */
    public static String text(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** The identity: stage, kind and subject; the passages are what it points to, not what it is. */
    public String key() {
        return stage.id() + "/" + kind.id() + ":" + subject;
    }
}

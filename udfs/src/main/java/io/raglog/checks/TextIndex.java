package io.raglog.checks;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One text prepared for the lexical checks: its words, their stems and its normalised numbers, so that "is this name,
 * number or date in that passage" is a set lookup. Built once per text per run.
 */
public final class TextIndex {

    private final String text;
    private final List<String> words;
    private final Set<String> wordSet;
    private final Set<String> stems;
    private final Set<String> numbers;

    private TextIndex(String text) {
        this.text = text == null ? "" : text;
        this.words = Terms.words(this.text);
        this.wordSet = new HashSet<>(words);
        this.stems = new HashSet<>();
        for (String w : words) {
            stems.add(Terms.stem(w));
        }
        this.numbers = Terms.numbers(this.text);
    }

    public static TextIndex of(String text) {
        return new TextIndex(text);
    }

    /** One index over several texts (e.g. all passages of the context). */
    public static TextIndex ofAll(List<String> texts) {
        return new TextIndex(String.join("\n", texts.stream().map(t -> t == null ? "" : t).toList()));
    }

    public String text() {
        return text;
    }

    public List<String> words() {
        return words;
    }

    public boolean hasWord(String lowerWord) {
        return wordSet.contains(lowerWord) || stems.contains(Terms.stem(lowerWord));
    }

    public Set<String> wordSet() {
        return wordSet;
    }

    public boolean contains(KeyTerm term) {
        if (term.kind() == KeyTerm.Kind.NUMBER) {
            return numbers.contains(term.norm());
        }
        if (term.kind() == KeyTerm.Kind.DATE && Character.isDigit(term.norm().charAt(0))) {
            return numbers.contains(term.norm()) || wordSet.contains(term.norm());
        }
        // Names and month names: every word present (case-insensitive), so "Acme Corp." matches "acme corp".
        return Arrays.stream(term.norm().split(" ")).allMatch(this::hasWord);
    }
}

package io.raglog.checks;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One text prepared for the lexical checks: its words, their stems and its normalised numbers, so that "is this name,
 * number or date in that passage" is a set lookup. Built once per text per run.
 */
public final class TextIndex {

    private static final Pattern JOINER = Pattern.compile("[-'’&]");
    private static final Pattern NAME_PARTS = Pattern.compile("[\\s\\-'’&]+");

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
            if (JOINER.matcher(w).find()) {
                // "Phags-pa" and "Phags pa", "Al-Hasa" and "Al Hasa" are the same name: index the parts too
                for (String part : JOINER.split(w)) {
                    if (!part.isEmpty()) {
                        wordSet.add(part);
                        stems.add(Terms.stem(part));
                    }
                }
            }
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
        // Hyphenated and spaced spellings meet: every part present.
        return Arrays.stream(NAME_PARTS.split(term.norm())).filter(p -> !p.isEmpty()).allMatch(this::hasWord);
    }
}

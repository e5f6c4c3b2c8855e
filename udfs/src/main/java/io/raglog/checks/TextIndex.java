package io.raglog.checks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One text prepared for the lexical checks: its words, their stems and its normalised numbers, so that "is this name,
 * number or date in that passage" is a set lookup. Built once per text (see {@link #of}).
 */
public final class TextIndex {

    private static final Pattern JOINER = Pattern.compile("[-'’&]");
    private static final Pattern NAME_PARTS = Pattern.compile("[\\s\\-'’&]+");

    /** Recent texts' indexes: one passage is read by several checks per run, and recurs across runs. */
    private static final PerThreadMemo<TextIndex> RECENT = new PerThreadMemo<>(256);

    private final String text;
    private final List<String> words;
    private final Set<String> wordSet;
    private final Set<String> stems;
    private final Set<String> numbers;

    private TextIndex(String text) {
        this.text = text == null ? "" : text;
        List<String> w = Terms.words(this.text);
        Set<String> ws = new HashSet<>(w);
        Set<String> st = new HashSet<>();
        for (String word : w) {
            st.add(Terms.stem(word));
            if (JOINER.matcher(word).find()) {
                // "Phags-pa" and "Phags pa", "Al-Hasa" and "Al Hasa" are the same name: index the parts too
                for (String part : JOINER.split(word)) {
                    if (!part.isEmpty()) {
                        ws.add(part);
                        st.add(Terms.stem(part));
                    }
                }
            }
        }
        this.words = Collections.unmodifiableList(w);
        this.wordSet = Collections.unmodifiableSet(ws);
        this.stems = Collections.unmodifiableSet(st);
        this.numbers = Collections.unmodifiableSet(Terms.numbers(this.text));
    }

    private TextIndex(String text, List<String> words, Set<String> wordSet, Set<String> stems, Set<String> numbers) {
        this.text = text;
        this.words = Collections.unmodifiableList(words);
        this.wordSet = Collections.unmodifiableSet(wordSet);
        this.stems = Collections.unmodifiableSet(stems);
        this.numbers = Collections.unmodifiableSet(numbers);
    }

    public static TextIndex of(String text) {
        return RECENT.get(text == null ? "" : text, TextIndex::new);
    }

    /**
     * One index over several texts (e.g. all passages of the context): the index of the texts joined by newlines.
     * Built from each text's own index, which is the same thing: no word, number or name part spans a newline.
     */
    public static TextIndex ofAll(List<String> texts) {
        List<String> parts = texts.stream().map(t -> t == null ? "" : t).toList();
        if (parts.size() == 1) {
            return of(parts.get(0));
        }
        List<String> words = new ArrayList<>();
        Set<String> wordSet = new HashSet<>();
        Set<String> stems = new HashSet<>();
        Set<String> numbers = new LinkedHashSet<>();
        for (String part : parts) {
            TextIndex one = of(part);
            words.addAll(one.words);
            wordSet.addAll(one.wordSet);
            stems.addAll(one.stems);
            numbers.addAll(one.numbers);
        }
        return new TextIndex(String.join("\n", parts), words, wordSet, stems, numbers);
    }

    /** Normalised numbers, for tests. */
    Set<String> numbers() {
        return numbers;
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

package io.raglog.checks;

import io.raglog.memo.PerThreadMemo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One text prepared for the lexical checks: its words, their stems and its normalised numbers, so that "is this name,
 * number or date in that passage" is a set lookup. Built once per text (see {@link #of}); several texts (see
 * {@link #ofAll}) are looked up through each one's own index rather than merged into a new one, because merging a
 * run's passages cost more than reading them (half the rule checks' time, measured).
 */
public final class TextIndex {

    private static final Pattern NAME_PARTS = Pattern.compile("[\\s\\-'’&]+");

    /**
     * Recent texts' indexes: one passage is read by several checks per run, and popular passages recur across runs.
     * On the simulated SQuAD traffic (3,515 distinct passages in 1,600 runs), 256 texts kept 20 % of the passage reads
     * that recur across runs, 1,024 kept 58 %. An index was about 10.6 KB (measured on those passages), and its
     * sentences' stems, which AnswerSentences kept in a memo of its own, about 5 KB more: some 16 MB per thread.
     */
    private static final PerThreadMemo<TextIndex> RECENT = new PerThreadMemo<>(1024);

    /** One text's index, or null when this is a view over several texts' {@link #parts}. */
    private final String text;
    private final Set<String> wordSet;
    private final Set<String> stems;
    private final Set<String> numbers;
    /** Each sentence's content-word stems, in order ({@link AnswerSentences}'s reading of a passage). */
    private final List<Set<String>> sentenceStems;
    /** The indexes every lookup asks: this one alone, or several texts' read as their newline-joined text. */
    private final List<TextIndex> parts;

    private TextIndex(String text) {
        this.text = text == null ? "" : text;
        // Read sentence by sentence: the words of the text are the words of its sentences, in order (a sentence ends
        // only at white space, which no word spans), and the sentences' stems are what AnswerSentences reads a
        // passage for. One scan serves both; before, each read every passage on its own.
        Reader reader = new Reader(this.text);
        List<Set<String>> bySentence = new ArrayList<>();
        // sentences and their words read in place, without copying either out of the text
        int[] sentences = AnswerSentences.sentenceBounds(this.text);
        for (int b = 0; b < sentences.length; b += 2) {
            reader.sentence = new StringSet(contentStemsAbout(sentences[b + 1] - sentences[b]));
            Terms.scanWords(this.text, sentences[b], sentences[b + 1], reader);
            bySentence.add(reader.sentence);
        }
        this.wordSet = reader.words;
        this.stems = reader.stems;
        this.numbers = Collections.unmodifiableSet(Terms.numbers(this.text));
        this.sentenceStems = Collections.unmodifiableList(bySentence);
        this.parts = List.of(this);
    }

    /**
     * Builds one text's sets from its words' bounds. The sets are StringSets, not HashSets: their entry objects were
     * most of what building an index allocated, and an index is built for most passages of every run (the recent ones
     * kept are too few to span the runs between two reads of a popular passage). A function word met before is not
     * looked at again.
     */
    private static final class Reader implements Terms.WordBounds {

        private final String text;
        final StringSet words;
        final StringSet stems;
        /** The content stems of the sentence being read. */
        StringSet sentence;

        Reader(String text) {
            this.text = text;
            this.words = new StringSet(distinctWordsAbout(text.length()));
            this.stems = new StringSet(distinctWordsAbout(text.length()));
        }

        @Override
        public void word(int start, int end) {
            String word = Terms.lowerCaseWord(text, start, end);
            boolean firstTime = words.insert(word);
            boolean content = Terms.isContentWord(word);
            if (!firstTime && !content) {
                return; // its stem and parts are in already, and a function word adds nothing to the sentence
            }
            String stem = Terms.stem(word);
            stems.insert(stem);
            if (!hasJoiner(word)) {
                if (content) {
                    sentence.insert(stem);
                }
                return;
            }
            // "Phags-pa" and "Phags pa", "Al-Hasa" and "Al Hasa" are the same name: index the parts too
            for (String part : Terms.WORD_JOINER.split(word)) {
                if (!part.isEmpty()) {
                    words.insert(part);
                    String partStem = Terms.stem(part);
                    stems.insert(partStem);
                    if (content && Terms.isContentWord(part)) {
                        sentence.insert(partStem);
                    }
                }
            }
        }
    }

    /**
     * About how many distinct content stems a sentence of this length holds, so that its set is not grown: one per ten
     * characters, and a text about one distinct word per eight (measured on the simulated passages: 452 characters and
     * 52 distinct words on average, and 12 content stems in a sentence).
     */
    private static int contentStemsAbout(int chars) {
        return chars / 10 + 1;
    }

    private static int distinctWordsAbout(int chars) {
        return chars / 8 + 1;
    }

    private TextIndex(List<TextIndex> parts) {
        this.text = null;
        this.wordSet = null;
        this.stems = null;
        this.numbers = null;
        this.sentenceStems = null;
        this.parts = parts;
    }

    public static TextIndex of(String text) {
        return RECENT.get(text == null ? "" : text, TextIndex::new);
    }

    /**
     * One index over several texts (e.g. all passages of the context): answers as the index of the texts joined by
     * newlines would, since no word, number or name part spans a newline, but asks each text's own index.
     */
    public static TextIndex ofAll(List<String> texts) {
        if (texts.size() == 1) {
            return of(texts.get(0));
        }
        List<TextIndex> parts = new ArrayList<>(texts.size());
        for (String t : texts) {
            parts.add(of(t));
        }
        return new TextIndex(parts);
    }

    /** Whether a word has a part joiner ({@code [-'’&]}): "Phags-pa", "O'Neil", "AT&T". */
    static boolean hasJoiner(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '-' || c == '\'' || c == '’' || c == '&') {
                return true;
            }
        }
        return false;
    }

    /** The content-word stems of each sentence of this one text, in order, as {@link AnswerSentences} reads them. */
    List<Set<String>> sentenceStems() {
        if (text == null) {
            throw new IllegalStateException("sentences are read per text, not over several texts");
        }
        return sentenceStems;
    }

    /** Normalised numbers, for tests. */
    Set<String> numbers() {
        if (text != null) {
            return numbers;
        }
        Set<String> all = new LinkedHashSet<>();
        parts.forEach(p -> all.addAll(p.numbers));
        return all;
    }

    public String text() {
        if (text != null) {
            return text;
        }
        return String.join("\n", parts.stream().map(p -> p.text).toList());
    }

    /** The text's lower-case words, in order: read again on each call (only tests ask; the checks ask the sets). */
    public List<String> words() {
        List<String> all = new ArrayList<>();
        parts.forEach(p -> all.addAll(Terms.words(p.text)));
        return Collections.unmodifiableList(all);
    }

    public boolean hasWord(String lowerWord) {
        if (anyHasWordExactly(lowerWord)) {
            return true;
        }
        String stem = Terms.stem(lowerWord);
        for (int i = 0; i < parts.size(); i++) { // indexed: the lookups run per word, an iterator is an object
            if (parts.get(i).stems.contains(stem)) {
                return true;
            }
        }
        return false;
    }

    public Set<String> wordSet() {
        if (text != null) {
            return wordSet;
        }
        Set<String> all = new HashSet<>();
        parts.forEach(p -> all.addAll(p.wordSet));
        return Collections.unmodifiableSet(all);
    }

    public boolean contains(KeyTerm term) {
        if (term.kind() == KeyTerm.Kind.NUMBER) {
            return anyHasNumber(term.norm());
        }
        if (term.kind() == KeyTerm.Kind.DATE && Character.isDigit(term.norm().charAt(0))) {
            return anyHasNumber(term.norm()) || anyHasWordExactly(term.norm());
        }
        // Names and month names: every word present (case-insensitive), so "Acme Corp." matches "acme corp".
        // Hyphenated and spaced spellings meet: every part present (each may be in another of the texts).
        for (String part : NAME_PARTS.split(term.norm())) {
            if (!part.isEmpty() && !hasWord(part)) {
                return false;
            }
        }
        return true;
    }

    private boolean anyHasNumber(String norm) {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).numbers.contains(norm)) {
                return true;
            }
        }
        return false;
    }

    private boolean anyHasWordExactly(String lowerWord) {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).wordSet.contains(lowerWord)) {
                return true;
            }
        }
        return false;
    }
}

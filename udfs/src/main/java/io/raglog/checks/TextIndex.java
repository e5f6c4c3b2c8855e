package io.raglog.checks;

import io.raglog.memo.PerThreadMemo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One text prepared for the lexical checks: its words, their stems and its normalised numbers, so that "is this name,
 * number or date in that passage" is a set lookup. Built once per text (see {@link #of}); several texts (see
 * {@link #ofAll}) are looked up through each one's own index rather than merged into a new one, because merging a
 * run's passages cost more than reading them (half the rule checks' time, measured).
 */
public final class TextIndex {

    /**
     * The knowledge base's passages' indexes, per thread: a passage is read by several checks per run, and a knowledge
     * base's passages recur across runs. They are kept apart from a run's own texts ({@link #RECENT}), which are read
     * again within their run and seldom after it: in one memo, the ten or so new texts every run brings pushed out
     * passages that were to come back. JMH {@code knownPassagesThenRuleChecks} on 2,000 simulated runs (20,331
     * passages read, 3,531 distinct), allocated an op: 28.3 KB with one memo of 4,096 for every text, 26.4 KB with
     * the passages apart in 4,096, 23.9 KB in 8,192 (half full, a set of 8 ways seldom overflows), 23.5 KB in 32,768.
     * An index is 1.3 KB for a passage, its text (which the memo keeps too) 0.56 KB, measured with JOL: up to 15 MB
     * per thread for 8,192 passages.
     */
    private static final PerThreadMemo<TextIndex> PASSAGES = new PerThreadMemo<>(8192);

    /**
     * A run's own texts' indexes (its question, rewrites, embedded texts, answer, prompt): read by several checks of
     * the run, and by its LLM checks while a few dozen later runs are checked.
     */
    private static final PerThreadMemo<TextIndex> RECENT = new PerThreadMemo<>(1024);

    /** One text's index, or null when this is a view over several texts' {@link #parts}. */
    private final String text;
    /**
     * The {@link WordHash}es of the text's lower-case words and of their parts ("phags-pa", "phags", "pa"), of those
     * words' stems and of its normalised numbers, each array ascending: a lookup is a binary search. Hashes, not the
     * Strings: what an index is asked is only whether it holds a word; the words themselves are read again from the
     * text by the one caller that lists them ({@link #wordSet}, for tests).
     */
    private final long[] words;
    private final long[] stems;
    private final long[] numbers;
    /** Each sentence's content-word stems, in order ({@link AnswerSentences}'s reading of a passage). */
    private final SentenceStems sentenceStems;
    /** The indexes every lookup asks: this one alone, or several texts' read as their newline-joined text. */
    private final List<TextIndex> parts;

    private TextIndex(String text) {
        this.text = text == null ? "" : text;
        // Read sentence by sentence: the words of the text are the words of its sentences, in order (a sentence ends
        // only at white space, which no word spans), and the sentences' stems are what AnswerSentences reads a
        // passage for. One scan serves both; before, each read every passage on its own.
        // sentences and their words read in place, without copying either out of the text
        int[] sentences = AnswerSentences.sentenceBounds(this.text);
        Reader reader = READERS.get();
        reader.start(this.text, sentences.length / 2);
        for (int b = 0; b < sentences.length; b += 2) {
            Terms.scanWords(this.text, sentences[b], sentences[b + 1], reader);
            reader.sentences.endSentence();
        }
        this.words = reader.words.sorted();
        this.stems = reader.stems.sorted();
        this.numbers = reader.numbers(this.text);
        this.sentenceStems = reader.sentences.build();
        this.parts = List.of(this);
    }

    /** Each thread's reader: no index is built while another is (building one reads no other text's index). */
    private static final ThreadLocal<Reader> READERS = ThreadLocal.withInitial(Reader::new);

    /**
     * Collects one text's hashes from its words' bounds. A function word met before is not looked at again (its stem
     * and parts are in already); a plain word (ASCII, not joined) the thread met before is known by its hash.
     */
    private static final class Reader implements Terms.WordBounds {

        private String text;
        final DistinctHashes words = new DistinctHashes();
        final DistinctHashes stems = new DistinctHashes();
        private final DistinctHashes numbers = new DistinctHashes();
        final SentenceStems.Builder sentences = new SentenceStems.Builder();
        private final WordFacts facts = WordFacts.ofThisThread();

        void start(String text, int sentenceCount) {
            this.text = text;
            words.clear();
            stems.clear();
            sentences.start(sentenceCount);
        }

        @Override
        public void word(int start, int end) {
            long plainHash = WordFacts.plainHash(text, start, end);
            if (plainHash != 0) {
                sentences.mark(Contrasts.markOf(plainHash));
            }
            int known = plainHash == 0 ? -1 : facts.slotOf(plainHash);
            if (known >= 0) {
                add(plainHash, facts.isContentWord(known), facts.stemHash(known));
            } else {
                read(Terms.lowerCaseWord(text, start, end), plainHash);
            }
        }

        /**
         * The hashes of the text's normalised numbers, ascending: as hashing each of {@link Terms#numbers}, without
         * the list, the set and the copies.
         */
        long[] numbers(String text) {
            numbers.clear();
            Terms.scanNumbers(text, (start, end) -> numbers.add(Terms.normalisedNumberHash(text, start, end)));
            return numbers.sorted();
        }

        /** A plain word (no joiner), by what the thread knows of it. */
        private void add(long wordHash, boolean content, long stemHash) {
            if (words.add(wordHash) || content) { // a function word met before adds nothing new
                stems.add(stemHash);
                if (content) {
                    sentences.add(stemHash);
                }
            }
        }

        /** A word read as a String: one not met before, or joined, or not all ASCII. */
        private void read(String word, long plainHash) {
            long wordHash = WordHash.of(word);
            if (plainHash == 0) { // a plain word was marked by its hash already
                sentences.mark(Contrasts.markOf(word, wordHash));
            }
            boolean firstTime = words.add(wordHash);
            boolean content = Terms.isContentWord(word);
            if (!firstTime && !content) {
                return; // its stem and parts are in already, and a function word adds nothing to the sentence
            }
            String stem = Terms.stem(word);
            long stemHash = stem == word ? wordHash : WordHash.of(stem); // most words are their own stem
            stems.add(stemHash);
            if (!hasJoiner(word)) {
                if (content) {
                    sentences.add(stemHash);
                }
                if (plainHash != 0) {
                    facts.put(plainHash, stem, stemHash, content);
                }
                return;
            }
            // "Phags-pa" and "Phags pa", "Al-Hasa" and "Al Hasa" are the same name: index the parts too
            for (String part : Terms.WORD_JOINER.split(word)) {
                if (!part.isEmpty()) {
                    words.add(WordHash.of(part));
                    long partStemHash = WordHash.of(Terms.stem(part));
                    stems.add(partStemHash);
                    if (content && Terms.isContentWord(part)) {
                        sentences.add(partStemHash);
                    }
                }
            }
        }
    }

    private TextIndex(List<TextIndex> parts) {
        this.text = null;
        this.words = null;
        this.stems = null;
        this.numbers = null;
        this.sentenceStems = null;
        this.parts = parts;
    }

    /** A run's own text's index (a question, a rewrite, an answer, a prompt): see {@link #ofPassage} for passages. */
    public static TextIndex of(String text) {
        return indexIn(RECENT, text);
    }

    /** A passage's index, kept per thread with the other passages read recently ({@link #PASSAGES}). */
    public static TextIndex ofPassage(String text) {
        return indexIn(PASSAGES, text);
    }

    private static TextIndex indexIn(PerThreadMemo<TextIndex> memo, String text) {
        return memo.get(text == null ? "" : text, TextIndex::new);
    }

    /**
     * One index over several texts (e.g. a run's rewrites; {@link #ofPassages} for passages): answers as the index of
     * the texts joined by newlines would, since no word, number or name part spans a newline, but asks each text's own
     * index.
     */
    public static TextIndex ofAll(List<String> texts) {
        return joined(texts, RECENT);
    }

    /** {@link #ofAll} of passages: each one's index is {@link #ofPassage}'s. */
    public static TextIndex ofPassages(List<String> texts) {
        return joined(texts, PASSAGES);
    }

    private static TextIndex joined(List<String> texts, PerThreadMemo<TextIndex> memo) {
        if (texts.size() == 1) {
            return indexIn(memo, texts.get(0));
        }
        List<TextIndex> parts = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) { // by index: no iterator per call
            parts.add(indexIn(memo, texts.get(i)));
        }
        return new TextIndex(parts);
    }

    /** This index and {@code other} as one, as {@link #ofAll} of both's texts would be. */
    public TextIndex and(TextIndex other) {
        List<TextIndex> both = new ArrayList<>(parts.size() + other.parts.size());
        both.addAll(parts);
        both.addAll(other.parts);
        return new TextIndex(both);
    }

    /** Whether a word has a part joiner ({@code [-'’&]}): "Phags-pa", "O'Neil", "AT&T". */
    static boolean hasJoiner(String word) {
        return hasJoiner(word, 0, word.length());
    }

    static boolean hasJoiner(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '-' || c == '\'' || c == '’' || c == '&') {
                return true;
            }
        }
        return false;
    }

    /** The content-word stems of each sentence of this one text, in order, as {@link AnswerSentences} reads them. */
    SentenceStems sentenceStems() {
        if (text == null) {
            throw new IllegalStateException("sentences are read per text, not over several texts");
        }
        return sentenceStems;
    }

    /** Normalised numbers, read again on each call (only tests ask; the checks ask {@link #contains}). */
    Set<String> numbers() {
        Set<String> all = new LinkedHashSet<>();
        parts.forEach(p -> all.addAll(Terms.numbers(p.text)));
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
        long stem = WordHash.of(Terms.stem(lowerWord));
        for (int i = 0; i < parts.size(); i++) { // indexed: the lookups run per word, an iterator is an object
            if (Arrays.binarySearch(parts.get(i).stems, stem) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lower-case words and their parts, read again from the text on each call: only tests ask (the checks ask
     * {@link #hasWord} and {@link #contains}).
     */
    public Set<String> wordSet() {
        Set<String> all = new HashSet<>();
        for (TextIndex p : parts) {
            for (String word : Terms.words(p.text)) {
                all.add(word);
                if (hasJoiner(word)) {
                    for (String part : Terms.WORD_JOINER.split(word)) {
                        if (!part.isEmpty()) {
                            all.add(part);
                        }
                    }
                }
            }
        }
        return Collections.unmodifiableSet(all);
    }

    public boolean contains(KeyTerm term) {
        if (term.kind() == KeyTerm.Kind.NUMBER) {
            return anyHasNumber(term.norm()) || anyHasEveryDigitGroup(term.surface());
        }
        if (term.kind() == KeyTerm.Kind.DATE && Character.isDigit(term.norm().charAt(0))) {
            return anyHasNumber(term.norm()) || anyHasWordExactly(term.norm());
        }
        // Names and month names: every word present (case-insensitive), so "Acme Corp." matches "acme corp".
        // Hyphenated and spaced spellings meet: every part present (each may be in another of the texts).
        return holdsEveryPart(term.norm());
    }

    /**
     * Whether every part of a name (between runs of {@code [\\s\\-'’&]}) is a word here: as splitting it on that
     * regex, whose matcher and array were made for each key term and each text asked (JFR), without them. A name of
     * one part, as most are, is asked as it is.
     */
    private boolean holdsEveryPart(String name) {
        int n = name.length();
        int i = 0;
        while (i < n) {
            if (isNamePartMark(name.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && !isNamePartMark(name.charAt(i))) {
                i++;
            }
            if (!hasWord(start == 0 && i == n ? name : name.substring(start, i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code [\\s\\-'’&]}, where {@code \\s} is {@code [ \\t\\n\\x0B\\f\\r]}. */
    private static boolean isNamePartMark(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r' || c == '-' || c == '\''
                || c == '’' || c == '&';
    }

    private boolean anyHasNumber(String norm) {
        return anyHasNumber(WordHash.of(norm));
    }

    private boolean anyHasNumber(long hash) {
        for (int i = 0; i < parts.size(); i++) {
            if (Arrays.binarySearch(parts.get(i).numbers, hash) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A number written with a point or a comma ("0.5", "4,100") kept as its digit groups, each a number of its own
     * ("0 5", "4 100"): how a keyword rewriter that splits on punctuation writes it, and what a keyword search then
     * matches. A number of one group has been asked already ({@link #anyHasNumber}); a group is hashed in place, as
     * written (a group has no point or comma, so normalising leaves it as it is).
     */
    private boolean anyHasEveryDigitGroup(String number) {
        if (number.indexOf('.') < 0 && number.indexOf(',') < 0) {
            return false;
        }
        int start = 0;
        for (int i = 0; i <= number.length(); i++) {
            if (i == number.length() || number.charAt(i) == '.' || number.charAt(i) == ',') {
                if (i > start && !anyHasNumber(WordHash.of(number, start, i))) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }

    private boolean anyHasWordExactly(String lowerWord) {
        long hash = WordHash.of(lowerWord);
        for (int i = 0; i < parts.size(); i++) {
            if (Arrays.binarySearch(parts.get(i).words, hash) >= 0) {
                return true;
            }
        }
        return false;
    }
}

package io.raglog.checks;

import java.util.Arrays;

/**
 * Each sentence's distinct content-word stems, in order, as {@link AnswerSentences} reads a passage: their
 * {@link WordHash}es in one array, each sentence's sorted, so that a sentence is compared with a question by one merge.
 * Kept by the passage's {@link TextIndex}: one array and its sentences' ends rather than a set of Strings per
 * sentence, so that a thread's memo holds several times more passages. Immutable once built.
 */
final class SentenceStems {

    /** The sentences' stems one after another, each sentence's ascending and each stem once. */
    private final long[] stems;
    /** Where each sentence's stems end in {@link #stems}: sentence {@code i} is {@code [ends[i - 1], ends[i])}. */
    private final int[] ends;
    /** Each sentence's {@link Contrasts} marks: its negation and the opposites it holds. */
    private final long[] marks;

    private SentenceStems(long[] stems, int[] ends, long[] marks) {
        this.stems = stems;
        this.ends = ends;
        this.marks = marks;
    }

    int count() {
        return ends.length;
    }

    /** How many distinct stems sentence {@code i} holds. */
    int size(int i) {
        return end(i) - start(i);
    }

    /**
     * How many of {@code sortedStems} (ascending, each once) sentence {@code i} holds: the two sorted runs merged, as
     * the question's stems are few and so are a sentence's (a dozen in each, on the simulated passages).
     */
    int shared(int i, long[] sortedStems) {
        int a = start(i);
        int aEnd = end(i);
        int b = 0;
        int shared = 0;
        while (a < aEnd && b < sortedStems.length) {
            if (stems[a] < sortedStems[b]) {
                a++;
            } else if (stems[a] > sortedStems[b]) {
                b++;
            } else {
                shared++;
                a++;
                b++;
            }
        }
        return shared;
    }

    /** Sentence {@code i}'s {@link Contrasts} marks. */
    long marks(int i) {
        return marks[i];
    }

    /** Sentence {@code i}'s stems, ascending: for tests. */
    long[] stemsOf(int i) {
        return Arrays.copyOfRange(stems, start(i), end(i));
    }

    private int start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    private int end(int i) {
        return ends[i];
    }

    /**
     * Collects one text's sentences' stems, one sentence after another. Each thread reuses its own for every text it
     * indexes ({@link #start}), so that building an index allocates only what it keeps.
     */
    static final class Builder {

        /** Enough for most passages' content stems (46 on average on the simulated ones); it grows past that. */
        private static final int CAPACITY = 128;

        private long[] stems = new long[CAPACITY];
        private int size;
        private int[] ends;
        private long[] marks;
        private int count;
        private int sentenceStart;

        /**
         * Starts a text; a buffer a long text grew is dropped.
         *
         * @param sentences how many sentences the text has: {@link #endSentence} is called once for each
         */
        void start(int sentences) {
            if (stems.length > CAPACITY * 8) {
                stems = new long[CAPACITY];
            }
            size = 0;
            ends = new int[sentences];
            marks = new long[sentences];
            count = 0;
            sentenceStart = 0;
        }

        /** Adds a content stem of the sentence being read (again, if it was there: {@link #endSentence} drops it). */
        void add(long stemHash) {
            if (size == stems.length) {
                stems = Arrays.copyOf(stems, size * 2);
            }
            stems[size++] = stemHash;
        }

        /** Marks the sentence being read with a word's {@link Contrasts} mark (0 for most words). */
        void mark(long mark) {
            if (mark != 0 && count < marks.length) {
                marks[count] |= mark;
            }
        }

        /** Closes the sentence being read: its stems sorted, each kept once. */
        void endSentence() {
            Arrays.sort(stems, sentenceStart, size);
            int kept = sentenceStart;
            for (int i = sentenceStart; i < size; i++) {
                if (i == sentenceStart || stems[i] != stems[kept - 1]) {
                    stems[kept++] = stems[i];
                }
            }
            size = kept;
            ends[count++] = size;
            sentenceStart = size;
        }

        SentenceStems build() {
            return new SentenceStems(Arrays.copyOf(stems, size), ends, marks);
        }
    }
}

package io.raglog.checks;

/**
 * What a {@link TextIndex} needs to know of a lower-case word it met before, found by the word's {@link WordHash}:
 * whether it is a content word and its stem's hash. A passage's index is built from its words, and nearly all of them
 * are words the thread has read before: found here, a word is hashed straight from the text and never copied out,
 * pooled, looked up among the stop words nor stemmed (those were two thirds of building an index, JFR).
 *
 * <p>Safe to share as {@link WordPool} is: both facts are pure functions of the word. Per thread; bounded, dropped and
 * started afresh once it holds {@link #CAPACITY} words. An entry of one word found for another needs their hashes to
 * be equal ({@link WordHash}): with 16,384 words kept, about a 1 in 10^15 chance for each word looked up.
 */
final class WordFacts {

    /** Words kept per thread: the texts 1,600 simulated runs' checks index hold 12,713 distinct words (measured). */
    static final int CAPACITY = 1 << 14;
    /** Twice the capacity, so that a probe ends at an empty slot soon; 17 bytes a slot: some 550 KB per thread. */
    private static final int SLOTS = CAPACITY * 2;

    private static final ThreadLocal<WordFacts> RECENT = ThreadLocal.withInitial(WordFacts::new);

    /** The words' hashes; 0 marks an empty slot (a word whose hash is 0 is never kept). */
    private final long[] words = new long[SLOTS];
    private final long[] stems = new long[SLOTS];
    private final boolean[] content = new boolean[SLOTS];
    private int size;

    WordFacts() {}

    static WordFacts ofThisThread() {
        return RECENT.get();
    }

    /** The slot of the word with this hash, or -1 when it is not kept. */
    int slotOf(long wordHash) {
        int i = probe(wordHash);
        return words[i] == wordHash && wordHash != 0 ? i : -1;
    }

    long stemHash(int slot) {
        return stems[slot];
    }

    boolean isContentWord(int slot) {
        return content[slot];
    }

    void put(long wordHash, long stemHash, boolean contentWord) {
        if (wordHash == 0) {
            return;
        }
        if (size >= CAPACITY) {
            java.util.Arrays.fill(words, 0);
            size = 0;
        }
        int i = probe(wordHash);
        if (words[i] == 0) {
            size++;
        }
        words[i] = wordHash;
        stems[i] = stemHash;
        content[i] = contentWord;
    }

    /** The slot holding {@code wordHash}, or the empty slot where it would go. */
    private int probe(long wordHash) {
        int mask = SLOTS - 1;
        int i = (int) (wordHash ^ (wordHash >>> 32)) & mask;
        while (words[i] != 0 && words[i] != wordHash) {
            i = (i + 1) & mask;
        }
        return i;
    }
}

package io.raglog.checks;

import java.util.Arrays;

/**
 * What a {@link TextIndex} and {@link Terms#contentStems} need to know of a lower-case word the thread met before,
 * found by the word's {@link WordHash}: whether it is a content word, and its stem (the String and its hash). A
 * passage's index and its content stems are read from its words, and nearly all of them are words the thread has read
 * before: found here, a word is hashed straight from the text and never copied out, pooled, looked up among the stop
 * words nor stemmed (those were two thirds of building an index, JFR). The known passages and the rule checks read the
 * same texts in the same thread, so what either learnt of a word serves the other.
 *
 * <p>Safe to share as {@link WordPool} is: each fact is a pure function of the word. Per thread; bounded, dropped and
 * started afresh once it holds {@link #CAPACITY} words. An entry of one word found for another needs their hashes to
 * be equal ({@link WordHash}): with 16,384 words kept, about a 1 in 10^15 chance for each word looked up.
 */
final class WordFacts {

    /** Words kept per thread: the texts 1,600 simulated runs' checks index hold 12,713 distinct words (measured). */
    static final int CAPACITY = 1 << 14;
    /**
     * Twice the capacity, so that a probe ends at an empty slot soon; 21 bytes a slot (with compressed references):
     * some 690 KB per thread, besides the stems themselves, which the thread's stem memo and word pool mostly hold too.
     */
    private static final int SLOTS = CAPACITY * 2;

    private static final ThreadLocal<WordFacts> RECENT = ThreadLocal.withInitial(WordFacts::new);

    /** The words' hashes; 0 marks an empty slot (a word whose hash is 0 is never kept). */
    private final long[] words = new long[SLOTS];
    private final long[] stemHashes = new long[SLOTS];
    private final String[] stems = new String[SLOTS];
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

    /**
     * The hash the facts know a word by: its {@link WordHash} when it is all ASCII and not joined ({@code [-'’&]}),
     * which can be worked out from the text in place; 0 for any other word, which is read as a String.
     */
    static long plainHash(String text, int start, int end) {
        return TextIndex.hasJoiner(text, start, end) ? 0 : WordHash.ofLowerCaseAscii(text, start, end);
    }

    long stemHash(int slot) {
        return stemHashes[slot];
    }

    String stem(int slot) {
        return stems[slot];
    }

    boolean isContentWord(int slot) {
        return content[slot];
    }

    /** @param stem the word's {@link Terms#stem}, and {@code stemHash} its hash */
    void put(long wordHash, String stem, long stemHash, boolean contentWord) {
        if (wordHash == 0) {
            return;
        }
        if (size >= CAPACITY) {
            Arrays.fill(words, 0);
            Arrays.fill(stems, null); // no longer kept alive by words dropped
            size = 0;
        }
        int i = probe(wordHash);
        if (words[i] == 0) {
            size++;
        }
        words[i] = wordHash;
        stemHashes[i] = stemHash;
        stems[i] = stem;
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

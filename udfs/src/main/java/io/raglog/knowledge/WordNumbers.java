package io.raglog.knowledge;

/**
 * Numbers words 0, 1, 2... in the order they are first added, and finds a word's number: an open-addressed table of
 * the words and their hash codes, where a {@code HashMap<String, Holders>} kept an entry object and a holder object a
 * word. Every word of every passage learned, and every question word, is looked up here, and the map's look-ups were
 * the largest part of a lookup at 20,000 known passages (JFR: {@code HashMap.getNode} under {@link WordIndex}, a third
 * of the operator's samples). With the question words looked up once and ties broken by key bits ({@link WordIndex}),
 * a lookup at 20,000 known passages took 38 µs of CPU instead of 50 ({@code KnownPassagesScale} on heap state, the
 * median of 8 measurements each, old and new alternated twice). Not thread-safe.
 */
final class WordNumbers {

    private String[] words = new String[64];
    /** Each slot's word's {@code hashCode()}, compared before the word itself is read. */
    private int[] hashes = new int[64];
    private int[] numbers = new int[64];
    private int size;

    int size() {
        return size;
    }

    /** The word's number, or -1 when it was never added. */
    int numberOf(String word) {
        int hash = word.hashCode();
        int mask = words.length - 1;
        for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
            String w = words[slot];
            if (w == null) {
                return -1;
            }
            if (hashes[slot] == hash && (w == word || w.equals(word))) {
                return numbers[slot];
            }
        }
    }

    /** The word's number, given it (the next one) when the word is new. */
    int add(String word) {
        int hash = word.hashCode();
        int mask = words.length - 1;
        int slot = spread(hash) & mask;
        for (String w = words[slot]; w != null; w = words[slot]) {
            if (hashes[slot] == hash && (w == word || w.equals(word))) {
                return numbers[slot];
            }
            slot = (slot + 1) & mask;
        }
        words[slot] = word;
        hashes[slot] = hash;
        numbers[slot] = size;
        if (++size * 2 > words.length) {
            grow();
        }
        return size - 1;
    }

    /** Doubles the table, keeping it at most half full. */
    private void grow() {
        String[] oldWords = words;
        int[] oldHashes = hashes;
        int[] oldNumbers = numbers;
        words = new String[oldWords.length * 2];
        hashes = new int[words.length];
        numbers = new int[words.length];
        int mask = words.length - 1;
        for (int i = 0; i < oldWords.length; i++) {
            if (oldWords[i] != null) {
                int slot = spread(oldHashes[i]) & mask;
                while (words[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                words[slot] = oldWords[i];
                hashes[slot] = oldHashes[i];
                numbers[slot] = oldNumbers[i];
            }
        }
    }

    /** Mixes all of a string hash's bits into the low ones a table index keeps (short words' hashes cluster). */
    private static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}

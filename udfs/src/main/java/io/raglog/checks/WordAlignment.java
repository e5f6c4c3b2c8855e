package io.raglog.checks;

import java.util.ArrayList;
import java.util.List;

/**
 * Two texts' words lined up on their longest common subsequence of words in any form ({@link Terms#sameWord}): the
 * words that stayed where they were, and between them the gaps where one text wrote something else or nothing. Read
 * word by word, in order, not as two sets: what a set misses is a word written over where it stood. A question against
 * its rewrite ({@link InPlaceSubstitutions}), an answer against the context sentence it copies ({@link SwappedFacts}).
 */
final class WordAlignment {

    /**
     * The unaligned words between two aligned ones (or an aligned word and an end): the first text's {@code [aFrom,
     * aTo)}, the second's {@code [bFrom, bTo)}; one side may be empty, never both.
     */
    record Gap(int aFrom, int aTo, int bFrom, int bTo) {

        /** Both texts wrote something here: one replaced what the other said, rather than adding or leaving out. */
        boolean twoSided() {
            return aFrom < aTo && bFrom < bTo;
        }

        int aLength() {
            return aTo - aFrom;
        }

        int bLength() {
            return bTo - bFrom;
        }
    }

    private final List<Gap> gaps;
    private final boolean[] alignedA;
    private final int aligned;

    private WordAlignment(List<Gap> gaps, boolean[] alignedA, int aligned) {
        this.gaps = gaps;
        this.alignedA = alignedA;
        this.aligned = aligned;
    }

    /**
     * @param a lower-case words, @param b lower-case words (as {@link Terms#words} gives them). Each word is stemmed
     *     once and the table kept in one array: every answer a run gives is aligned so with its source sentence.
     */
    static WordAlignment of(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        String[] stemsB = new String[m];
        for (int j = 0; j < m; j++) {
            stemsB[j] = Terms.stem(b.get(j));
        }
        boolean[] same = new boolean[n * m];
        for (int i = 0; i < n; i++) {
            String stemA = Terms.stem(a.get(i));
            for (int j = 0; j < m; j++) {
                same[i * m + j] = Terms.sameStem(stemA, stemsB[j]);
            }
        }
        // common[i * (m + 1) + j]: the longest common subsequence of a[i..] and b[j..]
        int w = m + 1;
        int[] common = new int[(n + 1) * w];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                common[i * w + j] = same[i * m + j] ? common[(i + 1) * w + j + 1] + 1
                        : Math.max(common[(i + 1) * w + j], common[i * w + j + 1]);
            }
        }
        List<Gap> gaps = new ArrayList<>();
        boolean[] alignedA = new boolean[n];
        int i = 0;
        int j = 0;
        int aFrom = 0;
        int bFrom = 0;
        while (i < n && j < m) {
            if (same[i * m + j] && common[i * w + j] == common[(i + 1) * w + j + 1] + 1) {
                addGap(gaps, aFrom, i, bFrom, j);
                alignedA[i] = true;
                i++;
                j++;
                aFrom = i;
                bFrom = j;
            } else if (common[(i + 1) * w + j] >= common[i * w + j + 1]) {
                i++;
            } else {
                j++;
            }
        }
        addGap(gaps, aFrom, n, bFrom, m);
        return new WordAlignment(gaps, alignedA, common[0]);
    }

    private static void addGap(List<Gap> gaps, int aFrom, int aTo, int bFrom, int bTo) {
        if (aFrom < aTo || bFrom < bTo) {
            gaps.add(new Gap(aFrom, aTo, bFrom, bTo));
        }
    }

    /** Every gap, in order, the one-sided ones included. */
    List<Gap> gaps() {
        return gaps;
    }

    /** How many words stayed in place: the longest common subsequence's length. */
    int aligned() {
        return aligned;
    }

    /** Whether the first text's word {@code i} stayed in place. */
    boolean alignedA(int i) {
        return alignedA[i];
    }
}

package io.raglog.checks;

import java.util.Arrays;

/**
 * The distinct {@link WordHash}es of a text, collected while its {@link TextIndex} is built: an open-addressing table
 * that says whether a hash is new (a text repeats most of its words, and a word met before need not be stemmed again),
 * then handed out as a sorted array, the compact form an index keeps and looks up by binary search. Each thread reuses
 * its own for every text it indexes ({@link #clear}), so that building an index allocates only what it keeps.
 */
final class DistinctHashes {

    /** Enough for the distinct words of most passages (52 on average on the simulated ones); it grows past that. */
    private static final int CAPACITY = 128;
    /**
     * The largest table kept for the next text (8 KB, cleared in some 100 ns): dropping each table a passage of many
     * distinct words grew made a new one for every such passage (JFR).
     */
    private static final int MAX_KEPT = 1024;
    private static final long[] NONE = {};

    /** Slots holding a hash; 0 marks an empty slot, so a hash of 0 is held by {@link #hasZero} instead. */
    private long[] table = new long[CAPACITY];
    private boolean hasZero;
    /** The hashes in the order they were first added, 0 included: what {@link #sorted} copies, without a scan. */
    private long[] added = new long[CAPACITY];
    private int size;

    /** Empties it for the next text; a table a very long text grew is dropped, so that it does not stay that large. */
    void clear() {
        if (table.length > MAX_KEPT) {
            table = new long[CAPACITY];
            added = new long[CAPACITY];
        } else {
            Arrays.fill(table, 0);
        }
        hasZero = false;
        size = 0;
    }

    /** Adds a hash; false if it was there. */
    boolean add(long hash) {
        if (hash == 0) {
            if (hasZero) {
                return false;
            }
            hasZero = true;
            append(0);
            return true;
        }
        if (tooFull(size + 1, table.length)) {
            grow();
        }
        int i = probe(table, hash);
        if (table[i] == hash) {
            return false;
        }
        table[i] = hash;
        append(hash);
        return true;
    }

    private void append(long hash) {
        if (size == added.length) {
            added = Arrays.copyOf(added, size * 2);
        }
        added[size++] = hash;
    }

    /** The hashes added, in ascending order, each once: an array the caller must not change. */
    long[] sorted() {
        if (size == 0) {
            return NONE; // most texts have no number: one empty array shared, never written to
        }
        long[] out = Arrays.copyOf(added, size);
        Arrays.sort(out);
        return out;
    }

    /** The slot holding {@code hash}, or the empty slot where it would go. */
    private static int probe(long[] table, long hash) {
        int mask = table.length - 1;
        int i = (int) (hash ^ (hash >>> 32)) & mask;
        while (table[i] != 0 && table[i] != hash) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** A table twice the size, holding the same hashes. */
    private void grow() {
        table = new long[table.length * 2];
        for (int i = 0; i < size; i++) {
            if (added[i] != 0) {
                table[probe(table, added[i])] = added[i];
            }
        }
    }

    /** At most two thirds full, so that a probe ends at an empty slot soon. */
    private static boolean tooFull(int size, int capacity) {
        return size * 3L > capacity * 2L;
    }
}

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

    /** Slots holding a hash; 0 marks an empty slot, so a hash of 0 is held by {@link #hasZero} instead. */
    private long[] table = new long[CAPACITY];
    private boolean hasZero;
    private int size;

    /** Empties it for the next text; a table a long text grew is dropped, so that clearing stays cheap. */
    void clear() {
        if (table.length > CAPACITY) {
            table = new long[CAPACITY];
        } else {
            Arrays.fill(table, 0);
        }
        hasZero = false;
        size = 0;
    }

    /** Adds a hash; false if it was there. */
    boolean add(long hash) {
        if (hash == 0) {
            boolean added = !hasZero;
            hasZero = true;
            size += added ? 1 : 0;
            return added;
        }
        if (tooFull(size + 1, table.length)) {
            grow();
        }
        int i = probe(table, hash);
        if (table[i] == hash) {
            return false;
        }
        table[i] = hash;
        size++;
        return true;
    }

    /** The hashes added, in ascending order, each once. */
    long[] sorted() {
        long[] out = new long[size];
        int n = 0;
        if (hasZero) {
            out[n++] = 0;
        }
        for (long hash : table) {
            if (hash != 0) {
                out[n++] = hash;
            }
        }
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

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        for (long hash : old) {
            if (hash != 0) {
                table[probe(table, hash)] = hash;
            }
        }
    }

    /** At most two thirds full, so that a probe ends at an empty slot soon. */
    private static boolean tooFull(int size, int capacity) {
        return size * 3L > capacity * 2L;
    }
}

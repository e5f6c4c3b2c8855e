package io.raglog.checks;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;

/**
 * An unmodifiable set of strings that iterates in the order they were first added: a {@link StringSet} to find them
 * and an array to list them, no entry object per element. What {@link Terms#contentStems} gives: the 39 stems of a
 * SQuAD passage take 672 bytes besides the strings themselves, against 2,368 in an unmodifiable {@code LinkedHashSet}
 * (JOL), which is what lets the per-thread memo of recent texts hold four times as many.
 */
final class OrderedStringSet extends AbstractSet<String> {

    private final StringSet members;
    private final String[] inOrder;

    private OrderedStringSet(StringSet members, String[] inOrder) {
        this.members = members;
        this.inOrder = inOrder;
    }

    /**
     * Collects the distinct strings in the order they come, each told apart by its {@link WordHash}, which the caller
     * has (a stem's hash is among what {@link WordFacts} keeps): the strings themselves, scattered over the heap, are
     * read once each when the set is built rather than hashed and compared at every repeat (that was most of reading
     * a text's stems, JFR). Reusable: {@link #build} starts it afresh, so a builder kept per thread allocates only the
     * set it gives.
     */
    static final class Builder {

        /** Past this many strings a builder's array is let go once built, rather than kept for every later set. */
        private static final int MAX_KEPT = 256;

        private final DistinctHashes seen = new DistinctHashes();
        private String[] inOrder = new String[16];
        private int size;

        /** @param hash {@code WordHash.of(s)} */
        void add(String s, long hash) {
            if (seen.add(hash)) {
                if (size == inOrder.length) {
                    inOrder = Arrays.copyOf(inOrder, size * 2);
                }
                inOrder[size++] = s;
            }
        }

        OrderedStringSet build() {
            String[] strings = Arrays.copyOf(inOrder, size);
            StringSet members = new StringSet(size);
            for (String s : strings) {
                members.insert(s);
            }
            if (size > MAX_KEPT) {
                inOrder = new String[16];
            } else {
                Arrays.fill(inOrder, 0, size, null); // holds no string past the set it was for
            }
            seen.clear();
            size = 0;
            return new OrderedStringSet(members, strings);
        }
    }

    @Override
    public boolean contains(Object o) {
        return members.contains(o);
    }

    @Override
    public int size() {
        return inOrder.length;
    }

    @Override
    public Iterator<String> iterator() {
        return Arrays.asList(inOrder).iterator(); // Arrays.asList's iterator cannot remove
    }
}

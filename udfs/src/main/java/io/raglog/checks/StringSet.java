package io.raglog.checks;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of strings in one open-addressing array: no entry object per element. A {@link TextIndex} holds a text's
 * words, its stems and each sentence's content stems; as {@code HashSet}s their entries and tables were a third of
 * what the rule checks allocated (JFR), since most passages are read afresh every run. Filled once with
 * {@link #insert} while the index is built; read-only through the {@code Set} interface ({@code add} and
 * {@code remove} throw), so an index can hand its sets out. Iteration order is the table's, not insertion order:
 * callers only ask whether it holds a string, or whether any of its strings is in another set.
 */
final class StringSet extends AbstractSet<String> {

    private static final int MIN_CAPACITY = 8;

    private String[] table;
    private int size;

    /** @param expected how many strings it will likely hold (it grows past that) */
    StringSet(int expected) {
        int capacity = MIN_CAPACITY;
        // at most half full, so that a miss ends at an empty slot within a probe or two
        while (capacity < expected * 2) {
            capacity <<= 1;
        }
        table = new String[capacity];
    }

    /** Adds a string while the set is being built; false if it was there. */
    boolean insert(String s) {
        if ((size + 1) * 2 > table.length) {
            grow();
        }
        int mask = table.length - 1;
        int i = slot(s.hashCode(), mask);
        while (table[i] != null) {
            if (table[i].equals(s)) {
                return false;
            }
            i = (i + 1) & mask;
        }
        table[i] = s;
        size++;
        return true;
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof String s)) {
            return false;
        }
        int mask = table.length - 1;
        int i = slot(s.hashCode(), mask);
        while (table[i] != null) {
            if (table[i].equals(s)) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    /** Whether some string of this set is not in {@code other}: a loop over the table, no iterator. */
    boolean hasAnyOutside(java.util.Set<String> other) {
        for (String s : table) {
            if (s != null && !other.contains(s)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<String> iterator() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < table.length && table[i] == null) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next < table.length;
            }

            @Override
            public String next() {
                if (next >= table.length) {
                    throw new NoSuchElementException();
                }
                String s = table[next];
                next = advance(next + 1);
                return s;
            }
        };
    }

    private void grow() {
        String[] old = table;
        table = new String[old.length * 2];
        int mask = table.length - 1;
        for (String s : old) {
            if (s != null) {
                int i = slot(s.hashCode(), mask);
                while (table[i] != null) {
                    i = (i + 1) & mask;
                }
                table[i] = s;
            }
        }
    }

    /** Spreads the hash's high bits down (as HashMap does), since the table index keeps only the low ones. */
    private static int slot(int hash, int mask) {
        return (hash ^ (hash >>> 16)) & mask;
    }
}

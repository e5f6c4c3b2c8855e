package io.raglog.checks;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of strings in one open-addressing array: no entry object per element. The {@link WordPool}'s table, which
 * finds a word it holds from the word's bounds in a text ({@link #findLowerCase}) without copying it out. Filled with
 * {@link #insert}; read-only through the {@code Set} interface ({@code add} and {@code remove} throw). Iteration
 * order is the table's, not insertion order.
 */
final class StringSet extends AbstractSet<String> {

    private static final int MIN_CAPACITY = 8;

    private String[] table;
    private int size;

    /** @param expected how many strings it will likely hold (it grows past that) */
    StringSet(int expected) {
        int capacity = MIN_CAPACITY;
        while (tooFull(expected, capacity)) {
            capacity <<= 1;
        }
        table = new String[capacity];
    }

    /** Adds a string while the set is being built; false if it was there. */
    boolean insert(String s) {
        if (tooFull(size + 1, table.length)) {
            grow();
        }
        int i = probe(s);
        if (table[i] != null) {
            return false;
        }
        table[i] = s;
        size++;
        return true;
    }

    @Override
    public boolean contains(Object o) {
        return o instanceof String s && table[probe(s)] != null;
    }

    /** The slot holding {@code s}, or the empty slot where it would go. */
    private int probe(String s) {
        int mask = table.length - 1;
        int i = slot(s.hashCode(), mask);
        while (table[i] != null && !table[i].equals(s)) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /**
     * The string of this set equal to {@code text[start, end)} lower-cased, found without copying the region out; null
     * when there is none, or when the region is not all ASCII (whose lower case this does not work out). The
     * {@link WordPool} meets most words again: this finds the copy it made before.
     */
    String findLowerCase(String text, int start, int end) {
        int hash = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= 128) {
                return null;
            }
            hash = 31 * hash + lowerAscii(c); // String.hashCode of the lower-cased word
        }
        int length = end - start;
        int mask = table.length - 1;
        for (int i = slot(hash, mask); table[i] != null; i = (i + 1) & mask) {
            String s = table[i];
            if (s.hashCode() == hash && s.length() == length && equalsLowerCase(s, text, start)) {
                return s;
            }
        }
        return null;
    }

    private static boolean equalsLowerCase(String s, String text, int start) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != lowerAscii(text.charAt(start + i))) {
                return false;
            }
        }
        return true;
    }

    private static char lowerAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
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

    /** At most two thirds full, so that a probe (a lookup that misses, mostly) ends at an empty slot soon. */
    private static boolean tooFull(int size, int capacity) {
        return size * 3L > capacity * 2L;
    }

    /** Spreads the hash's high bits down (as HashMap does), since the table index keeps only the low ones. */
    private static int slot(int hash, int mask) {
        return (hash ^ (hash >>> 16)) & mask;
    }
}

package io.raglog.ingest;

import java.io.Serializable;
import java.util.AbstractCollection;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;

/**
 * An insertion-ordered map that answers as a {@link java.util.LinkedHashMap} does (putting a key it holds keeps its
 * place, removing and putting it again moves it last; null keys and values allowed), held as one array of keys and
 * values side by side: the children of the object nodes {@link JsonTrees} builds. Each {@code ObjectNode} read as
 * {@code readTree} reads it held a {@code LinkedHashMap}, a hash table of 16 and a 40-byte entry per field: in a JFR
 * allocation profile of the job (issue #27) {@code LinkedHashMap.newNode} under {@code ObjectNode.replace} was 2.7 %
 * of raglog's allocation, the table's resizing 1.2 % and the maps 0.7 %. Most objects a call carries have 1 to 8
 * fields: here they cost the map and one array.
 *
 * <p>Up to {@link #LINEAR_MAX} entries a key is looked for by scanning (the parser's keys are mostly the same
 * instances, so {@code ==} answers first); past it, an open-addressing index of positions is kept so that a large
 * object is not read in quadratic time. Removal shifts the entries after the removed one and drops the index, which
 * the next lookup rebuilds: removals are rare on a decoded message (adapters remove from a {@code deepCopy}, which is
 * a {@code LinkedHashMap} again). An entry an iterator returns is made as it is returned; it reads and writes the
 * map's value while its key is still at its place.
 */
final class CompactLinkedMap<K, V> implements Map<K, V>, Serializable {

    private static final long serialVersionUID = 1L;

    /** Up to this many entries a lookup scans; past it, it goes through {@link #index}. */
    static final int LINEAR_MAX = 8;

    /** The first array holds this many entries: most objects fit, and growing doubles it. */
    private static final int FIRST_CAPACITY = 4;

    private static final Object[] NONE = {};

    /** Key {@code i} at {@code 2i}, its value at {@code 2i + 1}, in insertion order; slots past the size are null. */
    private Object[] slots = NONE;

    private int size;

    /**
     * Past {@link #LINEAR_MAX} entries: an open-addressing table (linear probing, a power of two at least twice the
     * size) of entry positions plus one, 0 being an empty slot. Null while not built or after a removal.
     */
    private int[] index;

    /** Counts changes of the set of keys, for iterators to fail fast as {@code LinkedHashMap}'s do. */
    private transient int modCount;

    /**
     * The entry view, kept: serializing a node and {@code ObjectNode.fields()} ask for it. The key and value views
     * are made when asked for: with them the map took 48 bytes instead of 32 (and {@code AbstractMap}'s two fields
     * for them are why this is a {@code Map} of its own, not an {@code AbstractMap}).
     */
    private transient Set<Map.Entry<K, V>> entries;

    CompactLinkedMap() {}

    /** A map with room for {@code capacity} entries before it grows: an object's fields, counted before it is made. */
    CompactLinkedMap(int capacity) {
        slots = capacity == 0 ? NONE : new Object[2 * capacity];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public boolean containsKey(Object key) {
        return positionOf(key) >= 0;
    }

    @Override
    public boolean containsValue(Object value) {
        for (int i = 0; i < size; i++) {
            if (Objects.equals(value, slots[2 * i + 1])) {
                return true;
            }
        }
        return false;
    }

    @Override
    public V get(Object key) {
        int at = positionOf(key);
        return at < 0 ? null : valueAt(at);
    }

    @Override
    public V put(K key, V value) {
        int at = positionOf(key);
        if (at >= 0) {
            V old = valueAt(at);
            slots[2 * at + 1] = value;
            return old;
        }
        append(key, value);
        return null;
    }

    @Override
    public V remove(Object key) {
        int at = positionOf(key);
        if (at < 0) {
            return null;
        }
        V old = valueAt(at);
        removeAt(at);
        return old;
    }

    @Override
    public void clear() {
        if (size > 0) {
            Arrays.fill(slots, 0, 2 * size, null);
            size = 0;
            modCount++;
        }
        index = null;
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action);
        int expected = modCount;
        for (int i = 0; i < size; i++) {
            action.accept(keyAt(i), valueAt(i));
            if (modCount != expected) {
                throw new ConcurrentModificationException();
            }
        }
    }

    /** As {@code AbstractMap.hashCode}, without an entry object per field: {@code ObjectNode.hashCode} calls it. */
    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < size; i++) {
            h += Objects.hashCode(slots[2 * i]) ^ Objects.hashCode(slots[2 * i + 1]);
        }
        return h;
    }

    /** As {@code AbstractMap.equals}, without an entry object per field: {@code ObjectNode.equals} calls it. */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Map<?, ?> other) || other.size() != size) {
            return false;
        }
        try {
            for (int i = 0; i < size; i++) {
                Object key = slots[2 * i];
                Object value = slots[2 * i + 1];
                if (value == null ? other.get(key) != null || !other.containsKey(key) : !value.equals(other.get(key))) {
                    return false;
                }
            }
        } catch (ClassCastException | NullPointerException unlike) {
            return false;
        }
        return true;
    }

    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        Set<Map.Entry<K, V>> view = entries;
        return view != null ? view : (entries = new EntryView());
    }

    @Override
    public Set<K> keySet() {
        return new KeyView();
    }

    @Override
    public Collection<V> values() {
        return new ValueView();
    }

    @Override
    public void putAll(Map<? extends K, ? extends V> m) {
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    /** As {@code AbstractMap.toString}, which {@code LinkedHashMap} uses. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append('{');
        for (int i = 0; i < size; i++) {
            Object key = slots[2 * i];
            Object value = slots[2 * i + 1];
            sb.append(i == 0 ? "" : ", ")
                    .append(key == this ? "(this Map)" : key)
                    .append('=')
                    .append(value == this ? "(this Map)" : value);
        }
        return sb.append('}').toString();
    }

    @SuppressWarnings("unchecked")
    private K keyAt(int i) {
        return (K) slots[2 * i];
    }

    @SuppressWarnings("unchecked")
    private V valueAt(int i) {
        return (V) slots[2 * i + 1];
    }

    /** The position of {@code key}, or -1. */
    private int positionOf(Object key) {
        if (size > LINEAR_MAX) {
            return indexedPositionOf(key);
        }
        Object[] s = slots;
        for (int i = 0; i < size; i++) {
            Object k = s[2 * i];
            if (k == key || (key != null && key.equals(k))) {
                return i;
            }
        }
        return -1;
    }

    private int indexedPositionOf(Object key) {
        int[] table = index;
        if (table == null) {
            table = rebuildIndex(size);
        }
        int mask = table.length - 1;
        for (int h = spread(key) & mask; table[h] != 0; h = (h + 1) & mask) {
            int at = table[h] - 1;
            Object k = slots[2 * at];
            if (k == key || (key != null && key.equals(k))) {
                return at;
            }
        }
        return -1;
    }

    /** Puts a key the caller knows this map does not hold, without looking for it. */
    void putAbsent(K key, V value) {
        append(key, value);
    }

    private void append(K key, V value) {
        if (2 * size == slots.length) {
            slots = Arrays.copyOf(slots, Math.max(2 * FIRST_CAPACITY, 2 * slots.length));
        }
        slots[2 * size] = key;
        slots[2 * size + 1] = value;
        size++;
        modCount++;
        if (size > LINEAR_MAX) {
            if (index == null || 2 * size > index.length) {
                rebuildIndex(size);
            } else {
                indexPosition(index, size - 1);
            }
        }
    }

    /** Removes the entry at {@code at}, moving the ones after it one place up. */
    private void removeAt(int at) {
        System.arraycopy(slots, 2 * at + 2, slots, 2 * at, 2 * (size - at - 1));
        size--;
        slots[2 * size] = null;
        slots[2 * size + 1] = null;
        modCount++;
        index = null; // the positions after it have moved: rebuilt by the next lookup that needs it
    }

    /** An index of the first {@code n} entries, in a table with room for twice as many. */
    private int[] rebuildIndex(int n) {
        int[] table = new int[Integer.highestOneBit(Math.max(n, LINEAR_MAX) * 4 - 1)];
        for (int i = 0; i < n; i++) {
            indexPosition(table, i);
        }
        return index = table;
    }

    private void indexPosition(int[] table, int at) {
        int mask = table.length - 1;
        int h = spread(slots[2 * at]) & mask;
        while (table[h] != 0) {
            h = (h + 1) & mask;
        }
        table[h] = at + 1;
    }

    private static int spread(Object key) {
        int h = key == null ? 0 : key.hashCode();
        return h ^ (h >>> 16);
    }

    /** Walks the positions in order; removes through the map, as {@code LinkedHashMap}'s iterators do. */
    private abstract class Walk<T> implements Iterator<T> {
        private int next;
        private int last = -1;
        private int expectedModCount = modCount;

        @Override
        public final boolean hasNext() {
            return next < size;
        }

        /** The position of the next entry. */
        final int advance() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            if (next >= size) {
                throw new NoSuchElementException();
            }
            last = next++;
            return last;
        }

        @Override
        public final void remove() {
            if (last < 0) {
                throw new IllegalStateException();
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            removeAt(last);
            next = last;
            last = -1;
            expectedModCount = modCount;
        }
    }

    /** An entry as the iterator returned it: the map's while its key is at its place, its own values after. */
    private final class Entry implements Map.Entry<K, V> {
        private final K key;
        private final int at;
        private V value;

        Entry(int at) {
            this.key = keyAt(at);
            this.value = valueAt(at);
            this.at = at;
        }

        private boolean inPlace() {
            return at < size && slots[2 * at] == key;
        }

        @Override
        public K getKey() {
            return key;
        }

        @Override
        public V getValue() {
            if (inPlace()) {
                value = valueAt(at);
            }
            return value;
        }

        @Override
        public V setValue(V v) {
            V old = getValue();
            value = v;
            if (inPlace()) {
                slots[2 * at + 1] = v;
            }
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> e
                    && Objects.equals(key, e.getKey())
                    && Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(getValue());
        }

        @Override
        public String toString() {
            return key + "=" + getValue();
        }
    }

    private final class EntryView extends AbstractSet<Map.Entry<K, V>> {
        @Override
        public int size() {
            return size;
        }

        @Override
        public void clear() {
            CompactLinkedMap.this.clear();
        }

        @Override
        public Iterator<Map.Entry<K, V>> iterator() {
            return new Walk<>() {
                @Override
                public Map.Entry<K, V> next() {
                    return new Entry(advance());
                }
            };
        }

        @Override
        public boolean contains(Object o) {
            if (!(o instanceof Map.Entry<?, ?> e)) {
                return false;
            }
            int at = positionOf(e.getKey());
            return at >= 0 && Objects.equals(valueAt(at), e.getValue());
        }

        @Override
        public boolean remove(Object o) {
            if (!(o instanceof Map.Entry<?, ?> e)) {
                return false;
            }
            int at = positionOf(e.getKey());
            if (at < 0 || !Objects.equals(valueAt(at), e.getValue())) {
                return false;
            }
            removeAt(at);
            return true;
        }

        @Override
        public Spliterator<Map.Entry<K, V>> spliterator() {
            return Spliterators.spliterator(this, Spliterator.ORDERED | Spliterator.DISTINCT);
        }
    }

    private final class KeyView extends AbstractSet<K> {
        @Override
        public int size() {
            return size;
        }

        @Override
        public void clear() {
            CompactLinkedMap.this.clear();
        }

        @Override
        public Iterator<K> iterator() {
            return new Walk<>() {
                @Override
                public K next() {
                    return keyAt(advance());
                }
            };
        }

        @Override
        public boolean contains(Object o) {
            return containsKey(o);
        }

        @Override
        public boolean remove(Object o) {
            int at = positionOf(o);
            if (at < 0) {
                return false;
            }
            removeAt(at);
            return true;
        }

        @Override
        public Spliterator<K> spliterator() {
            return Spliterators.spliterator(this, Spliterator.ORDERED | Spliterator.DISTINCT);
        }
    }

    private final class ValueView extends AbstractCollection<V> {
        @Override
        public int size() {
            return size;
        }

        @Override
        public void clear() {
            CompactLinkedMap.this.clear();
        }

        @Override
        public Iterator<V> iterator() {
            return new Walk<>() {
                @Override
                public V next() {
                    return valueAt(advance());
                }
            };
        }

        @Override
        public boolean contains(Object o) {
            return containsValue(o);
        }

        @Override
        public Spliterator<V> spliterator() {
            return Spliterators.spliterator(this, Spliterator.ORDERED);
        }
    }
}

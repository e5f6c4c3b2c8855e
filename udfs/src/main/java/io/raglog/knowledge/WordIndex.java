package io.raglog.knowledge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pipeline's known passages as the lookups read them, on the heap: each passage's key by a number given in the
 * order it was added, the store's id for it once a run has given one, per word the numbers of the passages holding
 * it, and per passage the words it holds (as the words' numbers, sorted). Derived from the keyed state's passages
 * (the texts stay there) and rebuilt from them after a restore, so it is never checkpointed.
 *
 * <p>Why not keyed state: kept there as one list of keys per word, learning a passage rewrote the list of each of its
 * ~70 words, which on RocksDB cost ~1.9 ms a passage at 1,000 known and grew with the lists (3.7 ms at 5,000); a
 * pipeline indexing 100,000 documents through raglog held its task for six minutes at the least. Here adding a
 * passage appends a number per word, and a lookup sums its question words' lists into an array instead of a map of
 * keys (issue #27; the figures are in {@code docs/benchmarks.md}).
 *
 * <p>A word held by {@link KnownPassagesFunction#COMMON_WORD} passages or more is common: its count stops there and
 * its list is let go, since a lookup only ever reads the lists of words below that count. Not thread-safe: one
 * operator instance's.
 */
final class WordIndex {

    private final int commonWord;
    private final List<String> keys = new ArrayList<>();
    /**
     * Each passage's key as the number its 16 hex digits spell, which orders the keys as their strings do: a lookup
     * breaks its candidates' ties by key, and at 20,000 known passages many candidates tie (holding the same few
     * question words), so comparing the key strings (each a reference away) was much of picking the best.
     */
    private long[] keyOrder = new long[64];
    /** False once a key is not 16 lower-case hex digits (none is, as {@link PassageKey} makes them): strings then. */
    private boolean keysInOrder = true;
    private final Map<String, Integer> numbers = new HashMap<>();
    /**
     * The store's id of each passage, null until a run gave it: the second opinion orders tied candidates by id, and
     * reading each tied candidate's stored value for it was most of a lookup's reads from state (6.5 a lookup, where
     * two passages are kept).
     */
    private final List<String> ids = new ArrayList<>();
    /** Each word's number; by it, the count and list of the passages holding the word. */
    private final WordNumbers wordNumbers = new WordNumbers();
    /** How many passages hold each word, capped at the common-word bound. */
    private int[] counts = new int[64];
    /** The numbers of the passages holding each word, in its first {@link #counts} places while below the bound. */
    private int[][] lists = new int[64][];
    /**
     * Each passage's words, by their numbers, sorted: what a candidate's match is read from, rather than its text
     * read from state and its words stemmed again (three fifths of a lookup's Java work at 20,000 known passages,
     * when few candidates' words were still in {@code Terms}' memo; the reads were most of the rest). About 250 bytes
     * a passage.
     */
    private final List<int[]> wordsOf = new ArrayList<>();

    WordIndex(int commonWord) {
        this.commonWord = commonWord;
    }

    int size() {
        return keys.size();
    }

    /** The passage's number, or -1 when it is not known. */
    int number(String key) {
        Integer n = numbers.get(key);
        return n == null ? -1 : n;
    }

    String key(int number) {
        return keys.get(number);
    }

    /** Whether passage {@code a}'s key comes before passage {@code b}'s, as {@code String.compareTo} orders them. */
    boolean keyBefore(int a, int b) {
        return keysInOrder
                ? Long.compareUnsigned(keyOrder[a], keyOrder[b]) < 0
                : keys.get(a).compareTo(keys.get(b)) < 0;
    }

    /**
     * The number 16 lower-case hex digits spell, whose unsigned order is their strings' order (every digit sorts
     * before every letter, in both); -1 for any other key, which {@code -1}'s hex ("ffffffffffffffff") is not.
     */
    static long orderOf(String key) {
        if (key.length() != 16) {
            return -1;
        }
        long bits = 0;
        for (int i = 0; i < 16; i++) {
            char c = key.charAt(i);
            int digit;
            if (c >= '0' && c <= '9') {
                digit = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                digit = c - 'a' + 10;
            } else {
                return -1;
            }
            bits = bits << 4 | digit;
        }
        return bits;
    }

    /** The store's id for the passage, or null when no run has given one. */
    String id(int number) {
        return ids.get(number);
    }

    void setId(int number, String id) {
        ids.set(number, id);
    }

    /**
     * Adds a passage that is not known yet, with the distinct words of its text; returns its number.
     *
     * @param id the store's id, null when only indexing showed the passage
     */
    int add(String key, String id, Set<String> words) {
        int number = keys.size();
        keys.add(key);
        if (number == keyOrder.length) {
            keyOrder = Arrays.copyOf(keyOrder, number * 2);
        }
        long order = orderOf(key);
        keyOrder[number] = order;
        if (order == -1 && !"ffffffffffffffff".equals(key)) {
            keysInOrder = false;
        }
        numbers.put(key, number);
        ids.add(id);
        int[] held = new int[words.size()];
        int w = 0;
        for (String word : words) {
            int wordNumber = numberFor(word);
            held[w++] = wordNumber;
            int count = counts[wordNumber];
            if (count >= commonWord) {
                continue;
            }
            if (count + 1 >= commonWord) {
                lists[wordNumber] = null; // common from now on: no lookup reads its list
            } else {
                int[] list = lists[wordNumber];
                if (count == list.length) {
                    lists[wordNumber] = list = Arrays.copyOf(list, count * 2);
                }
                list[count] = number;
            }
            counts[wordNumber] = count + 1;
        }
        Arrays.sort(held);
        wordsOf.add(held);
        return number;
    }

    /**
     * Replaces the words a passage's match is read from, when its text in state was replaced by another with the same
     * key (a run handed it with its store id, in other spacing or case, or without a document instruction): a match is
     * the text in state's. Which passages each word's list holds stays as it was.
     */
    void rewordPassage(int number, Set<String> words) {
        int[] held = new int[words.size()];
        int w = 0;
        for (String word : words) {
            held[w++] = numberFor(word);
        }
        Arrays.sort(held);
        wordsOf.set(number, held);
    }

    /** The word's number, numbering it (with no holders yet) when it is new. */
    private int numberFor(String word) {
        int known = wordNumbers.size();
        int number = wordNumbers.add(word);
        if (number == known) {
            if (number == counts.length) {
                counts = Arrays.copyOf(counts, number * 2);
                lists = Arrays.copyOf(lists, number * 2);
            }
            lists[number] = new int[4];
        }
        return number;
    }

    /** The word's number, or -1 when no known passage holds it. */
    int wordNumber(String word) {
        return wordNumbers.numberOf(word);
    }

    /** Whether the passage holds the word, both by their numbers. */
    boolean holds(int passage, int word) {
        return word >= 0 && Arrays.binarySearch(wordsOf.get(passage), word) >= 0;
    }

    /**
     * How many known passages hold the word (by its {@link #wordNumber}, -1 for none), at most the common-word bound.
     */
    int holding(int word) {
        return word < 0 ? 0 : counts[word];
    }

    /**
     * The numbers of the passages holding a word (by its {@link #wordNumber}) below the common-word bound, in its first
     * {@link #holding} places; null for a common or unknown word. The array is the index's own: read it, never change
     * it.
     */
    int[] listed(int word) {
        return word < 0 ? null : lists[word];
    }
}

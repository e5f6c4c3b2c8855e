package io.raglog.memo;

/**
 * One thread's memory of a {@link PerThreadMemo}: a fixed table of texts and their results, set-associative. A text's
 * hash picks a set of {@link #WAYS} slots; the text can live only there. The slots are parallel arrays (the text, its
 * hash, its result), so a put makes no entry object and the table never resizes; a lookup compares the stored hashes
 * of one set first, and a text only when its hash matches (by identity, then by content).
 *
 * <p>On a miss, the set's clock hand replaces the first slot not asked about since the hand last passed it (a hit only
 * marks its slot, it moves nothing): a text read again soon after it was computed, as a run's texts are, outlives the
 * texts that were read once. Not thread-safe: each thread has its own.
 */
final class Slots<V> {

    /**
     * Slots per set. Eight hashes fill half a cache line, and eight ways keep nearly all of a few thousand recurring
     * texts: of 2,000 texts spread at random over 4,096 slots, about 0.7 % find their set full with eight ways, 3.5 %
     * with four and 10 % with two (Poisson: the excess over the ways, per text).
     */
    static final int WAYS = 8;

    private final int ways;
    private final int setMask;
    private final String[] texts;
    private final int[] hashes;
    private final Object[] results;
    /** Whether a slot was asked about since the clock hand last passed it. */
    private final boolean[] asked;
    /** Each set's clock hand: the way it looks at first for a slot to replace. */
    private final byte[] hands;

    /** At least {@code capacity} slots, a power of two, and never more than twice as many. */
    Slots(int capacity) {
        int slots = capacity <= 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.ways = Math.min(WAYS, slots);
        int sets = slots / ways;
        this.setMask = sets - 1;
        this.texts = new String[slots];
        this.hashes = new int[slots];
        this.results = new Object[slots];
        this.asked = new boolean[slots];
        this.hands = new byte[sets];
    }

    /** How many texts this table can hold at once. */
    int capacity() {
        return texts.length;
    }

    /** The result remembered for {@code text}, or null when there is none. */
    @SuppressWarnings("unchecked")
    V find(String text) {
        int hash = text.hashCode();
        int first = firstSlot(hash);
        for (int slot = first, end = first + ways; slot < end; slot++) {
            if (hashes[slot] == hash) {
                String held = texts[slot];
                if (held == text || (held != null && held.equals(text))) {
                    if (!asked[slot]) {
                        asked[slot] = true;
                    }
                    return (V) results[slot];
                }
            }
        }
        return null;
    }

    /** Remembers {@code result} for {@code text}, in place of the set's slot the clock hand picks. */
    void put(String text, V result) {
        int hash = text.hashCode();
        int first = firstSlot(hash);
        int set = first / ways;
        int hand = hands[set];
        while (asked[first + hand]) {
            asked[first + hand] = false;
            hand = (hand + 1) & (ways - 1);
        }
        int slot = first + hand;
        texts[slot] = text;
        hashes[slot] = hash;
        results[slot] = result;
        hands[set] = (byte) ((hand + 1) & (ways - 1));
    }

    /**
     * The first slot of the set {@code hash} picks. The hash is mixed first, so that the set depends on all of its
     * bits and not on its low bits alone (a set, unlike a hash map's bucket, cannot grow when texts crowd into it).
     */
    private int firstSlot(int hash) {
        int mixed = hash * 0x9E3779B9;
        return ((mixed ^ (mixed >>> 16)) & setMask) * ways;
    }
}

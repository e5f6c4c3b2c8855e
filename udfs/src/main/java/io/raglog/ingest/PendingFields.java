package io.raglog.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * The fields of the objects {@link JsonTrees} is reading, innermost last, name and value side by side: an object's
 * map is made once all its fields are read, at its size. Grown as fields were read, the maps' arrays were 5.9 % of
 * decoding a call's allocation (JFR on {@code DecodeBenchmarks.decodeCall}, issue #27); made at their size (and the
 * map 16 bytes smaller) decodeCall allocates 12,245 B/op, not 12,898 (JMH). One per thread, kept from one message to
 * the next.
 */
final class PendingFields {

    /** Past this many slots a thread does not keep the array for the next message. */
    private static final int MAX_KEPT_SLOTS = 1 << 12;

    private static final int FIRST_SLOTS = 64;

    private static final ThreadLocal<PendingFields> OF_THREAD = ThreadLocal.withInitial(PendingFields::new);

    private Object[] slots = new Object[FIRST_SLOTS];

    private int top;

    private PendingFields() {}

    /**
     * This thread's, empty: a read that failed left its fields, which are dropped here (until then they hold on to a
     * failed message's nodes, no more than {@link #MAX_KEPT_SLOTS} of them).
     */
    static PendingFields ofThisThread() {
        PendingFields pending = OF_THREAD.get();
        pending.popTo(0);
        return pending;
    }

    /** Where the fields of an object about to be read start. */
    int mark() {
        return top;
    }

    void push(String name, JsonNode value) {
        if (top + 2 > slots.length) {
            slots = Arrays.copyOf(slots, 2 * slots.length);
        }
        slots[top++] = name;
        slots[top++] = value;
    }

    /**
     * The fields pushed since {@code mark}, in a map of their number (duplicate names as {@code readTree} keeps them:
     * the last value at the first one's place), taken off.
     */
    CompactLinkedMap<String, JsonNode> popMap(int mark) {
        CompactLinkedMap<String, JsonNode> map = new CompactLinkedMap<>((top - mark) / 2);
        // A bit per name hash seen (mod 64): a name whose bit is not set is new, put without a lookup. Looking for
        // each name among the ones before it cost decodeCall 5 to 9 % of its throughput, this 3 % (JMH, against
        // LinkedHashMap's 69k ops/s); names are seldom repeated.
        long seen = 0;
        for (int i = mark; i < top; i += 2) {
            String name = (String) slots[i];
            long bit = 1L << name.hashCode();
            if ((seen & bit) == 0) {
                seen |= bit;
                map.putAbsent(name, (JsonNode) slots[i + 1]);
            } else {
                map.put(name, (JsonNode) slots[i + 1]);
            }
        }
        popTo(mark);
        return map;
    }

    private void popTo(int mark) {
        Arrays.fill(slots, mark, top, null); // no node outlives its message here
        top = mark;
        if (top == 0 && slots.length > MAX_KEPT_SLOTS) {
            slots = new Object[FIRST_SLOTS];
        }
    }
}

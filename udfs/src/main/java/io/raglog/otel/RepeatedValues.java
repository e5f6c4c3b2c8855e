package io.raglog.otel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Immutable pieces made once per value, for values that come back run after run (a pipeline's name, the model
 * bundle's id, the thresholds' version and source): the evaluation events of every verdict carry them, and building
 * them anew per event was a good part of what those events allocated (JFR, issue #27). Holds at most {@link #MOST}
 * values: one more empties it, so a stream of values that do not repeat costs a rebuild now and then, never memory.
 * Safe across threads (the tasks of a JVM share it): two threads missing at once build the same piece twice.
 */
final class RepeatedValues<V> {

    static final int MOST = 64;

    private final Function<String, V> make;
    private final Map<String, V> made = new ConcurrentHashMap<>();

    RepeatedValues(Function<String, V> make) {
        this.make = make;
    }

    /** The piece for {@code value}; null reads as the empty string. */
    V of(String value) {
        String key = value == null ? "" : value;
        V piece = made.get(key);
        if (piece == null) {
            if (made.size() >= MOST) {
                made.clear();
            }
            piece = make.apply(key);
            made.put(key, piece);
        }
        return piece;
    }
}

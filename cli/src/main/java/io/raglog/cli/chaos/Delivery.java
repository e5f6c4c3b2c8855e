package io.raglog.cli.chaos;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What reached one output compared with what should have: the ids expected, the ids delivered (as many times as they
 * were delivered).
 *
 * @param lost expected, never delivered: a gap
 * @param duplicated deliveries beyond the first of an id
 * @param unexpected delivered, never expected
 */
public record Delivery(String output, int expected, int delivered, int lost, int duplicated, int unexpected) {

    public static Delivery of(String output, Collection<String> expectedIds, List<String> deliveredIds) {
        Set<String> expected = new HashSet<>(expectedIds);
        Set<String> distinct = new HashSet<>(deliveredIds);
        int lost = (int) expected.stream().filter(id -> !distinct.contains(id)).count();
        int unexpected = (int) distinct.stream().filter(id -> !expected.contains(id)).count();
        return new Delivery(output, expected.size(), deliveredIds.size(), lost, deliveredIds.size() - distinct.size(),
                unexpected);
    }

    /** Exactly what was expected, each once. */
    public boolean exact() {
        return lost == 0 && duplicated == 0 && unexpected == 0;
    }

    @Override
    public String toString() {
        return String.format("%s: %d expected, %d delivered, %d lost, %d duplicated, %d unexpected", output, expected,
                delivered, lost, duplicated, unexpected);
    }
}

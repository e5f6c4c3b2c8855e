package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link CompactLinkedMap} must answer as a {@link LinkedHashMap} does: the same random sequences of operations (on the
 * map and through its views and their iterators, below and well past the size where it starts indexing) leave both
 * with the same answers and the same entries in the same order.
 */
class CompactLinkedMapTest {

    private static final int STEPS = 4_000;

    @Test
    void shouldAnswerAsALinkedHashMapOverRandomOperations() {
        for (int keys : new int[] {3, CompactLinkedMap.LINEAR_MAX, CompactLinkedMap.LINEAR_MAX + 1, 40, 600}) {
            for (int seed = 0; seed < 8; seed++) {
                runRandomOperations(new Random(31L * keys + seed), keys);
            }
        }
    }

    @Test
    void shouldGrowPastTheIndexAndFindEveryKey() {
        CompactLinkedMap<String, Integer> map = new CompactLinkedMap<>();
        Map<String, Integer> expected = new LinkedHashMap<>();
        for (int i = 0; i < 5_000; i++) {
            String key = "k" + (i * 7919 % 5_000);
            assertThat(map.put(key, i)).isEqualTo(expected.put(key, i));
        }
        for (int i = 0; i < 5_000; i += 3) {
            assertThat(map.put("k" + i, -i)).isEqualTo(expected.put("k" + i, -i));
        }
        assertSame(map, expected);
        assertThat(map.get("absent")).isNull();
        assertThat(map.containsKey(new String("k4999"))).isTrue(); // equal, not the same instance
    }

    @Test
    void shouldFailFastAndRefuseWhatLinkedHashMapRefuses() {
        CompactLinkedMap<String, Integer> map = new CompactLinkedMap<>();
        map.put("a", 1);
        map.put("b", 2);
        Iterator<String> it = map.keySet().iterator();
        assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
        it.next();
        map.put("c", 3);
        assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);

        it = map.keySet().iterator();
        it.next();
        map.put("a", 10); // replacing a value is no structural change, as in LinkedHashMap
        assertThat(it.next()).isEqualTo("b");
        it.remove();
        assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
        it.next();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
        assertThat(map).containsExactly(Map.entry("a", 10), Map.entry("c", 3));

        assertThatThrownBy(() -> map.forEach((k, v) -> map.remove("c")))
                .isInstanceOf(ConcurrentModificationException.class);
    }

    @Test
    void shouldWriteEntriesThroughAndKeepTheirValuesOnceRemoved() {
        CompactLinkedMap<String, Integer> map = new CompactLinkedMap<>();
        map.put("a", 1);
        map.put("b", 2);
        List<Map.Entry<String, Integer>> kept = new ArrayList<>(map.entrySet());
        kept.get(1).setValue(20);
        assertThat(map.get("b")).isEqualTo(20);
        map.put("a", 10);
        assertThat(kept.get(0).getValue()).isEqualTo(10);
        assertThat(kept.get(0)).isEqualTo(Map.entry("a", 10)).hasSameHashCodeAs(Map.entry("a", 10));
        assertThat(kept.get(0)).hasToString("a=10");
        map.remove("a");
        assertThat(kept.get(0).getValue()).isEqualTo(10);
        assertThat(map).containsExactly(Map.entry("b", 20));
    }

    @Test
    void shouldSurviveJavaSerialization() throws IOException, ClassNotFoundException {
        CompactLinkedMap<String, Integer> map = new CompactLinkedMap<>();
        for (int i = 0; i < 20; i++) {
            map.put("k" + i, i);
        }
        map.remove("k3");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(map);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            Map<String, Integer> back = (Map<String, Integer>) in.readObject();
            back.put("k21", 21);
            map.put("k21", 21);
            assertThat(back.get("k19")).isEqualTo(19);
            assertThat(List.copyOf(back.entrySet())).isEqualTo(List.copyOf(map.entrySet()));
        }
    }

    private static void runRandomOperations(Random r, int keyCount) {
        CompactLinkedMap<String, Integer> map = new CompactLinkedMap<>();
        Map<String, Integer> expected = new LinkedHashMap<>();
        for (int step = 0; step < STEPS; step++) {
            String key = key(r, keyCount);
            Integer value = r.nextInt(20) == 0 ? null : r.nextInt(keyCount * 2 + 1);
            String what = "step " + step + " of " + keyCount + " keys";
            int op = r.nextInt(100);
            if (op < 40) {
                assertThat(map.put(key, value)).as(what).isEqualTo(expected.put(key, value));
            } else if (op < 50) {
                assertThat(map.remove(key)).as(what).isEqualTo(expected.remove(key));
            } else if (op < 55) {
                assertThat(map.putIfAbsent(key, value)).as(what).isEqualTo(expected.putIfAbsent(key, value));
            } else if (op < 58) {
                assertThat(map.keySet().remove(key)).as(what).isEqualTo(expected.keySet().remove(key));
            } else if (op < 60) {
                assertThat(map.values().remove(value)).as(what).isEqualTo(expected.values().remove(value));
            } else if (op < 63) {
                Map.Entry<String, Integer> e = new java.util.AbstractMap.SimpleEntry<>(key, value);
                assertThat(map.entrySet().contains(e)).as(what).isEqualTo(expected.entrySet().contains(e));
                assertThat(map.entrySet().remove(e)).as(what).isEqualTo(expected.entrySet().remove(e));
            } else if (op < 68) {
                removeSomeThroughIterators(r, map, expected, what);
            } else if (op < 72) {
                setSomeThroughEntries(r, map, expected);
            } else if (op < 75) {
                Map<String, Integer> more = new LinkedHashMap<>();
                for (int i = r.nextInt(keyCount + 1); i > 0; i--) {
                    more.put(key(r, keyCount), r.nextInt(100));
                }
                map.putAll(more);
                expected.putAll(more);
            } else if (op < 77) {
                Set<String> some = r.ints(r.nextInt(keyCount + 1), 0, keyCount).mapToObj(i -> "k" + i)
                        .collect(Collectors.toSet());
                boolean retain = r.nextBoolean();
                assertThat(retain ? map.keySet().retainAll(some) : map.keySet().removeAll(some)).as(what)
                        .isEqualTo(retain ? expected.keySet().retainAll(some) : expected.keySet().removeAll(some));
            } else if (op < 79) {
                int limit = r.nextInt(keyCount * 2 + 1);
                assertThat(map.values().removeIf(v -> v != null && v < limit)).as(what)
                        .isEqualTo(expected.values().removeIf(v -> v != null && v < limit));
            } else if (op < 80) {
                if (r.nextInt(4) == 0) {
                    map.clear();
                    expected.clear();
                }
            } else {
                assertThat(map.get(key)).as(what).isEqualTo(expected.get(key));
                assertThat(map.containsKey(key)).as(what).isEqualTo(expected.containsKey(key));
                assertThat(map.containsValue(value)).as(what).isEqualTo(expected.containsValue(value));
                assertThat(map.getOrDefault(key, -1)).as(what).isEqualTo(expected.getOrDefault(key, -1));
            }
            if (step % 16 == 0 || op >= 60 && op < 80) {
                assertSame(map, expected);
            }
        }
        assertSame(map, expected);
    }

    /** Keys from the parser are mostly the same instances; some here are equal copies. */
    private static String key(Random r, int keyCount) {
        int n = r.nextInt(keyCount + 1);
        if (n == keyCount) {
            return r.nextBoolean() ? null : "absent" + r.nextInt(3);
        }
        return r.nextBoolean() ? ("k" + n).intern() : new String("k" + n);
    }

    private static void removeSomeThroughIterators(
            Random r, Map<String, Integer> map, Map<String, Integer> expected, String what) {
        int view = r.nextInt(3);
        Iterator<?> actualIt = view == 0 ? map.keySet().iterator()
                : view == 1 ? map.values().iterator() : map.entrySet().iterator();
        Iterator<?> expectedIt = view == 0 ? expected.keySet().iterator()
                : view == 1 ? expected.values().iterator() : expected.entrySet().iterator();
        int oneIn = 1 + r.nextInt(4);
        while (expectedIt.hasNext()) {
            assertThat(actualIt.hasNext()).as(what).isTrue();
            assertThat(actualIt.next()).as(what).isEqualTo(expectedIt.next());
            if (r.nextInt(oneIn) == 0) {
                actualIt.remove();
                expectedIt.remove();
            }
        }
        assertThat(actualIt.hasNext()).as(what).isFalse();
    }

    private static void setSomeThroughEntries(Random r, Map<String, Integer> map, Map<String, Integer> expected) {
        Iterator<Map.Entry<String, Integer>> actualIt = map.entrySet().iterator();
        Iterator<Map.Entry<String, Integer>> expectedIt = expected.entrySet().iterator();
        while (expectedIt.hasNext()) {
            Map.Entry<String, Integer> a = actualIt.next();
            Map.Entry<String, Integer> e = expectedIt.next();
            if (r.nextInt(3) == 0) {
                Integer v = r.nextInt(10) == 0 ? null : r.nextInt(50);
                assertThat(a.setValue(v)).isEqualTo(e.setValue(v));
            }
        }
        if (r.nextBoolean()) {
            map.replaceAll((k, v) -> v == null ? 0 : v + 1);
            expected.replaceAll((k, v) -> v == null ? 0 : v + 1);
        }
    }

    /** The same answers from every read-only part of the contract, both ways where it goes both ways. */
    private static void assertSame(Map<String, Integer> map, Map<String, Integer> expected) {
        assertThat(map.size()).isEqualTo(expected.size());
        assertThat(map.isEmpty()).isEqualTo(expected.isEmpty());
        assertThat(List.copyOf(map.keySet().stream().map(k -> k == null ? "<null>" : k).toList()))
                .isEqualTo(expected.keySet().stream().map(k -> k == null ? "<null>" : k).toList());
        assertThat(new ArrayList<>(map.values())).isEqualTo(new ArrayList<>(expected.values()));
        assertThat(new ArrayList<>(map.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
        List<String> visited = new ArrayList<>();
        map.forEach((k, v) -> visited.add(k + "=" + v));
        assertThat(visited).isEqualTo(expected.entrySet().stream().map(Object::toString).toList());
        assertThat(map).hasToString(expected.toString());
        assertThat(map.equals(expected)).isTrue();
        assertThat(expected.equals(map)).isTrue();
        assertThat(map.hashCode()).isEqualTo(expected.hashCode());
        assertThat(map.keySet()).isEqualTo(expected.keySet()).hasSameHashCodeAs(expected.keySet());
        assertThat(map.entrySet()).isEqualTo(expected.entrySet()).hasSameHashCodeAs(expected.entrySet());
        for (String key : expected.keySet()) {
            assertThat(map.get(key)).isEqualTo(expected.get(key));
            assertThat(map.containsKey(key)).isTrue();
        }
        if (!expected.isEmpty()) {
            Map<String, Integer> other = new LinkedHashMap<>(expected);
            String last = new ArrayList<>(other.keySet()).get(other.size() - 1);
            other.put(last, other.get(last) == null ? 0 : other.get(last) + 1);
            assertThat(map.equals(other)).isFalse();
            assertThat(other.equals(map)).isFalse();
        }
    }
}

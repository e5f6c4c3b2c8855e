package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OrderedStringSetTest {

    @Test
    void shouldHoldWhatALinkedHashSetHoldsInTheSameOrder() {
        SplittableRandom random = new SplittableRandom(11);
        OrderedStringSet.Builder built = new OrderedStringSet.Builder(); // reused, as each thread's is
        for (int round = 0; round < 2_000; round++) {
            LinkedHashSet<String> expected = new LinkedHashSet<>();
            int n = random.nextInt(0, round % 10 == 0 ? 1_200 : 120); // some past what a builder keeps
            for (int i = 0; i < n; i++) {
                // many repeats, and sets past the builder's first sizes
                String s = "w" + random.nextInt(0, n < 120 ? 60 : 600);
                built.add(s, WordHash.of(s));
                expected.add(s);
            }
            OrderedStringSet set = built.build();
            assertThat(new ArrayList<>(set)).isEqualTo(new ArrayList<>(expected));
            assertThat(set).isEqualTo(expected).hasSameHashCodeAs(expected);
            for (int i = 0; i < 600; i++) {
                assertThat(set.contains("w" + i)).isEqualTo(expected.contains("w" + i));
            }
            assertThat(set.contains(null)).isFalse();
            assertThat(set.contains(7)).isFalse();
        }
    }

    @Test
    void shouldNotBeChangedThroughTheSetInterface() {
        OrderedStringSet.Builder built = new OrderedStringSet.Builder();
        built.add("a", WordHash.of("a"));
        built.add("b", WordHash.of("b"));
        OrderedStringSet set = built.build();
        assertThatThrownBy(() -> set.add("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> set.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        Iterator<String> it = set.iterator();
        it.next();
        assertThatThrownBy(it::remove).isInstanceOf(UnsupportedOperationException.class);
        assertThat(List.copyOf(set)).containsExactly("a", "b");
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StringSetTest {

    @Test
    void shouldHoldWhatAHashSetHoldsAsItGrows() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            StringSet set = new StringSet(random.nextInt(20));
            Set<String> expected = new HashSet<>();
            int n = random.nextInt(300);
            for (int i = 0; i < n; i++) {
                // few distinct values, so that many inserts repeat; some collide on hash ("Aa" and "BB")
                String s = switch (random.nextInt(4)) {
                    case 0 -> "Aa".repeat(1 + random.nextInt(3));
                    case 1 -> "BB".repeat(1 + random.nextInt(3));
                    default -> Integer.toString(random.nextInt(150), 36) + (random.nextBoolean() ? "é" : "");
                };
                assertThat(set.insert(s)).isEqualTo(expected.add(s));
            }
            assertThat(set).hasSize(expected.size()).isEqualTo(expected);
            assertThat(expected).isEqualTo(set);
            assertThat(set.hashCode()).isEqualTo(expected.hashCode());
            for (int i = 0; i < 50; i++) {
                String probe = Integer.toString(random.nextInt(300), 36);
                assertThat(set.contains(probe)).isEqualTo(expected.contains(probe));
            }
        }
    }

    @Test
    void shouldBeReadOnlyThroughTheSetInterface() {
        StringSet set = new StringSet(0);
        set.insert("a");
        assertThat(set.contains(1)).isFalse();
        assertThatThrownBy(() -> set.add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> set.iterator().remove()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new StringSet(4)).isEmpty();
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DistinctHashesTest {

    @Test
    void shouldHoldWhatATreeSetHoldsAsItGrowsAndIsClearedZeroIncluded() {
        Random random = new Random(5);
        DistinctHashes hashes = new DistinctHashes();
        for (int round = 0; round < 200; round++) {
            hashes.clear(); // reused, as each thread's are: after a round that grew it, and after one that did not
            TreeSet<Long> expected = new TreeSet<>();
            int n = random.nextInt(300);
            for (int i = 0; i < n; i++) {
                // few distinct values, so that many adds repeat; 0 (the empty slot's mark) and negatives among them;
                // some land in one slot (equal low bits)
                long hash = switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> (long) random.nextInt(8) << 40;
                    default -> random.nextInt(150) - 75;
                };
                assertThat(hashes.add(hash)).isEqualTo(expected.add(hash));
            }
            assertThat(hashes.sorted()).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        }
    }
}

package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AssembleRulesTest {

    @Test
    void shouldGroupThousandsAsStringFormatDid() {
        long[] edges = {0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, 128_000, Integer.MAX_VALUE,
                Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
        for (long n : edges) {
            assertThat(AssembleRules.grouped(n)).isEqualTo(String.format(Locale.ROOT, "%,d", n));
        }
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            long n = random.nextLong() >> random.nextInt(64);
            assertThat(AssembleRules.grouped(n)).isEqualTo(String.format(Locale.ROOT, "%,d", n));
        }
    }
}

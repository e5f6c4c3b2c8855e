package io.raglog.otel;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ThreeDecimals} against the two plain spellings it replaces, over the doubles where they could part. */
class ThreeDecimalsTest {

    /** What {@code EvaluationEvents.threeDecimals} was before issue #27. */
    private static String plain(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v) || Math.copySign(1.0, v) < 0) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        return BigDecimal.valueOf(v).setScale(3, RoundingMode.HALF_UP).toPlainString();
    }

    private static void assertSpelledAsBefore(List<Double> values) {
        for (double v : values) {
            String expected = plain(v);
            assertThat(ThreeDecimals.of(v)).as("%s (%s)", v, Double.toString(v)).isEqualTo(expected);
            assertThat(ThreeDecimals.append(new StringBuilder("p="), v).toString()).as("%s appended", v)
                    .isEqualTo("p=" + expected);
        }
    }

    @Test
    void shouldSpellEdgeCasesAsBefore() {
        assertSpelledAsBefore(List.of(0.0, -0.0, 1.0, 0.0005, 0.0015, 0.0025, 0.1235, 0.9995, 0.99949999, 0.99951,
                0.9994999999999999, 0.12345, 2.0005, 9.9995, 99.9995, 999.9995, -0.0004, -0.5, -1.2345, 1e-9, 1e-3,
                9.995e-4, 5e-4, 4.999e-4, 4.9999999999999996e-4, 5.000000000000001e-4, 1e-4, 1.5e-4, 123456.78951,
                9999999.9995, 1e7, 1.0000005e7, 1.23456789e7, 123456789.0005, 1e14, 9.999999999999995e14,
                999999999999999.9, 1e15, 1.2345e15, 1e16, 1e22, 1e300, Double.MAX_VALUE, Double.MIN_VALUE,
                Double.MIN_NORMAL, Math.ulp(1.0), 1 - Math.ulp(1.0) / 2, Math.nextDown(0.0005), Math.nextUp(0.0005),
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    }

    @Test
    void shouldSpellEveryThousandthAndItsNeighboursAsBefore() {
        List<Double> values = new ArrayList<>();
        for (int k = 0; k <= 20_000; k++) {
            double v = k / 1000.0;
            values.add(v);
            values.add(Math.nextUp(v));
            values.add(Math.nextDown(v));
            double tie = (2 * k + 1) / 2000.0; // 0.0005, 0.0015, ...: the halfway cases
            values.add(tie);
            values.add(Math.nextUp(tie));
            values.add(Math.nextDown(tie));
        }
        assertSpelledAsBefore(values);
    }

    @Test
    void shouldSpellRandomDoublesOfEveryMagnitudeAsBefore() {
        SplittableRandom random = new SplittableRandom(27);
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            values.add(random.nextDouble()); // probabilities and thresholds
            values.add(random.nextDouble() * 1e-3); // below a thousandth: Double.toString's exponent form
            values.add(random.nextDouble() * Math.pow(10, random.nextInt(3, 20))); // up to and past the long's reach
            values.add(random.nextInt(0, 1_000_000) / 10_000.0 + 0.00005); // halfway at the fourth decimal, or near
            values.add(Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL)); // any finite positive
            values.add(Double.longBitsToDouble(random.nextLong() & 0x3fffffffffffffffL)); // all magnitudes below 2
        }
        assertSpelledAsBefore(values);
    }

    @Test
    void shouldSpellAsTheFormatter() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 50_000; i++) {
            double v = random.nextDouble() * Math.pow(10, random.nextInt(-5, 8));
            assertThat(ThreeDecimals.of(v)).as("%s", v).isEqualTo(String.format(Locale.ROOT, "%.3f", v));
        }
    }
}

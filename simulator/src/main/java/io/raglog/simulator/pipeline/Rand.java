package io.raglog.simulator.pipeline;

import java.util.List;
import java.util.SplittableRandom;

/** Small draws on a run's own random stream; no global randomness, so a seed replays exactly. */
public final class Rand {

    private Rand() {}

    public static boolean chance(SplittableRandom rng, double p) {
        return rng.nextDouble() < p;
    }

    public static <T> T pick(SplittableRandom rng, List<T> items) {
        return items.get(rng.nextInt(items.size()));
    }

    /** A log-normal draw around a median: latencies and token counts have long right tails. */
    public static double logNormal(SplittableRandom rng, double median, double sigma) {
        return median * Math.exp(sigma * gaussian(rng));
    }

    public static double gaussian(SplittableRandom rng) {
        double u1 = 1 - rng.nextDouble();
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** The stream for run {@code index} of seed {@code seed}: independent of how many draws other runs made. */
    public static SplittableRandom forRun(long seed, long stream, long index) {
        long mixed = mix(mix(seed ^ 0x9E3779B97F4A7C15L) + stream * 0xBF58476D1CE4E5B9L + index);
        return new SplittableRandom(mixed);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

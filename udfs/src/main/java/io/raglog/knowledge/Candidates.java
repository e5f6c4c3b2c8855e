package io.raglog.knowledge;

import java.util.Arrays;

/**
 * The passages a lookup's question words point to, and the few best of them: by summed weight, highest first, ties by
 * key, exactly the order of sorting them all (which it replaces: a common question word can point to thousands).
 * Reused from one lookup to the next; not thread-safe.
 */
final class Candidates {

    private int[] touched = new int[256];
    private int count;
    private WordIndex index;

    /** Starts a lookup over this index. */
    void reset(WordIndex index) {
        this.index = index;
        this.count = 0;
    }

    /** A passage a question word pointed to, given once per lookup. */
    void touched(int number) {
        if (count == touched.length) {
            touched = Arrays.copyOf(touched, count * 2);
        }
        touched[count++] = number;
    }

    /** The numbers of the {@code k} best passages touched, best first, by {@code sums} and then by key. */
    int[] best(double[] sums, int k) {
        int[] best = new int[Math.min(k, count)];
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int n = touched[i];
            if (kept == best.length && !before(n, best[kept - 1], sums)) {
                continue;
            }
            int at = kept == best.length ? kept - 1 : kept++;
            while (at > 0 && before(n, best[at - 1], sums)) {
                best[at] = best[at - 1];
                at--;
            }
            best[at] = n;
        }
        return best;
    }

    private boolean before(int a, int b, double[] sums) {
        int bySum = Double.compare(sums[b], sums[a]);
        return bySum != 0 ? bySum < 0 : index.keyBefore(a, b);
    }
}

package io.raglog.simulator.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * Draws a pool's questions without replacement, in an order shuffled from the seed, so one sample asks each question
 * once. When the pool runs dry it is shuffled again and drawn anew ({@link #cycles()} says how often): a sample larger
 * than its split repeats questions, and the caller must say so.
 */
public final class QuestionDraw {

    private final List<Question> pool;
    private final LongFunction<SplittableRandom> shuffleStream;
    private final List<Question> order = new ArrayList<>();
    private int next;
    private int cycles = -1;

    /** @param shuffleStream the random stream for pass {@code n} over the pool (one stream per pass: replayable) */
    public QuestionDraw(List<Question> pool, LongFunction<SplittableRandom> shuffleStream) {
        this.pool = List.copyOf(pool);
        this.shuffleStream = shuffleStream;
    }

    public boolean isEmpty() {
        return pool.isEmpty();
    }

    public int size() {
        return pool.size();
    }

    public Question next() {
        if (pool.isEmpty()) {
            throw new IllegalStateException("no questions to draw from");
        }
        if (next == order.size()) {
            cycles++;
            order.clear();
            order.addAll(pool);
            SplittableRandom rng = shuffleStream.apply(cycles);
            for (int i = order.size() - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                order.set(j, order.set(i, order.get(j)));
            }
            next = 0;
        }
        return order.get(next++);
    }

    /** How many times the pool ran dry and was drawn again (0 while no question repeated). */
    public int cycles() {
        return Math.max(cycles, 0);
    }
}

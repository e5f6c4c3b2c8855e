package io.raglog.proxy;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls for something asynchronous (a recording reaching its sink) in short steps, up to a deadline. */
final class Eventually {

    private Eventually() {}

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }
}

package io.raglog.sink.elasticsearch;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls a condition every 50 ms until it holds or the time is up; the failure says what was awaited. */
final class Await {

    private Await() {}

    static void until(Duration timeout, String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out after " + timeout + " waiting until " + what, last);
    }
}

package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The assembly state's safety net ({@link AssemblySettings#stateTtl()}, {@link StateSweeps}): buffered calls leave
 * once expired even when the watermark never moves, and a key whose runs close leaves no timer behind.
 */
class AssemblyStateSweepTest {

    private static final Duration TTL = Duration.ofMinutes(20);
    private static final AssemblySettings SETTINGS = new AssemblySettings(Duration.ofSeconds(2),
            Duration.ofSeconds(120), Duration.ofSeconds(120), Duration.ofMinutes(10), TTL).eventTimeOnly();
    private static final long MINUTE = 60_000;

    /** The job's state layout: Flink's default 128 key groups for one task. */
    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new AssembleRunsFunction(
                SETTINGS)), ClassifiedCall::runKey, Types.STRING, 128, 1, 0);
        h.open();
        return h;
    }

    /** The job reads one clock for both: the time-to-live's and the timers' (the harness keeps two). */
    private static void clockAt(KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h, long ms)
            throws Exception {
        h.setStateTtlProcessingTime(ms);
        h.setProcessingTime(ms);
    }

    private static void buffer(KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h,
            ClassifiedCall call) throws Exception {
        h.processElement(call, call.event().endedAt().toEpochMilli());
    }

    @Test
    void shouldDropCallsTheWatermarkNeverCameForOnceTheyExpired() throws Exception {
        try (var h = harness()) {
            TestCalls hinted = TestCalls.run("bot", "trace-1", "alpha", 1);
            TestCalls unhinted = TestCalls.run("bot", null, "beta", 2);
            buffer(h, hinted.rewrite(0.0, 0.4));
            buffer(h, hinted.embed(0.45, 0.7));
            buffer(h, unhinted.rewrite(0.0, 0.4));
            assertThat(h.numKeyedStateEntries()).as("two keys' buffers").isEqualTo(2);
            assertThat(h.numProcessingTimeTimers()).as("one sweep per key").isEqualTo(2);

            clockAt(h, TTL.toMillis() - 1); // not yet expired, and no sweep due
            assertThat(h.numKeyedStateEntries()).isEqualTo(2);
            assertThat(h.numProcessingTimeTimers()).isEqualTo(2);

            clockAt(h, TTL.toMillis() + MINUTE); // the sweeps fall on the next whole minute
            assertThat(h.numKeyedStateEntries()).as("expired calls gone, watermark never moved").isZero();
            assertThat(h.numProcessingTimeTimers()).as("empty keys are not swept again").isZero();
            assertThat(h.extractOutputValues()).as("a dropped call makes no run").isEmpty();
        }
    }

    @Test
    void shouldSweepAKeyThatStillHoldsCallsAgainUntilTheyLeave() throws Exception {
        try (var h = harness()) {
            TestCalls a = TestCalls.run("bot", null, "alpha", 1);
            TestCalls b = TestCalls.run("bot", null, "beta", 2);
            buffer(h, a.rewrite(0.0, 0.4));
            clockAt(h, TTL.toMillis() / 2); // the same key buffers a later call: one sweep for both
            buffer(h, b.rewrite(0.0, 0.4));
            assertThat(h.numProcessingTimeTimers()).isOne();

            clockAt(h, TTL.toMillis() + MINUTE); // the first call expired, the second has not
            assertThat(h.numKeyedStateEntries()).isOne();
            assertThat(h.numProcessingTimeTimers()).as("swept again a quarter of the time-to-live later").isOne();

            long again = TTL.toMillis() + MINUTE + TTL.toMillis() / 4 + MINUTE; // 27 min: the second has 3 to go
            clockAt(h, again);
            assertThat(h.numKeyedStateEntries()).isOne();
            assertThat(h.numProcessingTimeTimers()).isOne();

            clockAt(h, again + TTL.toMillis() / 4 + MINUTE); // 33 min: it expired at 30
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void shouldCallOffTheSweepOfAKeyWhoseRunClosed() throws Exception {
        try (var h = harness()) {
            TestCalls a = TestCalls.run("bot", "trace-1", "alpha", 1);
            TestCalls b = TestCalls.run("bot", null, "beta", 2);
            for (TestCalls run : new TestCalls[] {a, b}) {
                buffer(h, run.rewrite(0.0, 0.4));
                buffer(h, run.embed(0.45, 0.7));
                buffer(h, run.generate(1.1, 2.5));
            }
            assertThat(h.numProcessingTimeTimers()).isEqualTo(2);

            h.processWatermark(TestCalls.ms(10));
            assertThat(h.extractOutputValues()).hasSize(2);
            assertThat(h.numProcessingTimeTimers()).as("both keys' sweeps, deleted").isZero();

            // a call of the closed hinted run arriving later is late, and buffers nothing to sweep
            buffer(h, a.embed("alpha-embed-again", 0.5, 0.6, 200, a.query));
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }
}

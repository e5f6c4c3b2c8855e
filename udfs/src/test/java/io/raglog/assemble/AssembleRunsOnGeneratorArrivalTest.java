package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * The prompt path: a generator call that arrives live closes its run a short processing-time wait later, with the
 * same linking the watermark would have done seconds later; old records (a backlog) are left to event time.
 */
class AssembleRunsOnGeneratorArrivalTest {

    private static final AssemblySettings SETTINGS = AssemblySettings.DEFAULTS;
    private static final long WAIT = SETTINGS.generatorWait().toMillis();

    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness(AssemblySettings s)
            throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedProcessFunction(new AssembleRunsFunction(s),
                ClassifiedCall::runKey, Types.STRING);
    }

    /** A call arriving live: the processing clock reads its end time when its record arrives. */
    private static void arrive(KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h,
            ClassifiedCall call) throws Exception {
        long end = call.event().endedAt().toEpochMilli();
        h.setProcessingTime(Math.max(h.getProcessingTime(), end));
        h.processElement(call, end);
    }

    private static List<ClassifiedCall> interleavedRuns() {
        return TestCalls.interleaved(TestCalls.run("bot", null, "alpha", 1), TestCalls.run("bot", null, "beta", 2));
    }

    private static List<Run> sorted(List<Run> runs) {
        return runs.stream().sorted(Comparator.comparing(Run::runId)).toList();
    }

    @Test
    void shouldCloseRunsAWaitAfterTheirGeneratorArrivesAsTheWatermarkWouldLaterOn() throws Exception {
        List<Run> byEventTime;
        try (var eventTime = harness(SETTINGS.eventTimeOnly())) {
            for (ClassifiedCall c : interleavedRuns()) {
                arrive(eventTime, c);
            }
            assertThat(eventTime.numProcessingTimeTimers()).as("the key's state sweep, no wait").isOne();
            eventTime.processWatermark(TestCalls.ms(10));
            byEventTime = sorted(eventTime.extractOutputValues());
        }
        assertThat(byEventTime).hasSize(2);

        try (var h = harness(SETTINGS)) {
            for (ClassifiedCall c : interleavedRuns()) {
                arrive(h, c);
            }
            // beta's generator ended at 2.0 s and its wait was over when alpha's arrived at 2.5 s; alpha's is not yet
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(r -> assertThat(r.callIds()).allSatisfy(id -> assertThat(id).startsWith("beta-")));
            h.setProcessingTime(TestCalls.ms(2.5) + WAIT - 1);
            assertThat(h.extractOutputValues()).hasSize(1);
            h.setProcessingTime(TestCalls.ms(2.5) + WAIT);

            assertThat(sorted(h.extractOutputValues())).isEqualTo(byEventTime);
            // stamped with the event time the watermark path would have closed them at: generator end + grace
            assertThat(h.getOutput().stream().filter(StreamRecord.class::isInstance).map(StreamRecord.class::cast)
                    .map(StreamRecord::getTimestamp).toList())
                    .containsExactly(TestCalls.ms(2.0) + SETTINGS.grace().toMillis(),
                            TestCalls.ms(2.5) + SETTINGS.grace().toMillis());

            h.processWatermark(TestCalls.ms(1000)); // the event-time timers find nothing left to close
            assertThat(h.extractOutputValues()).hasSize(2);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void shouldLeaveAGeneratorCallFromABacklogToEventTime() throws Exception {
        try (var h = harness(SETTINGS)) {
            TestCalls a = TestCalls.run("bot", null, "alpha", 1);
            h.setProcessingTime(TestCalls.ms(3600)); // an hour behind: the job is catching up
            h.processElement(a.rewrite(0.0, 0.4), TestCalls.ms(0.4));
            h.processElement(a.generate(1.1, 2.5), TestCalls.ms(2.5));
            assertThat(h.numProcessingTimeTimers()).as("the key's state sweep, no wait").isOne();
            h.setProcessingTime(TestCalls.ms(7200));
            assertThat(h.extractOutputValues()).isEmpty();

            h.processWatermark(TestCalls.ms(10));
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(r -> assertThat(r.callIds()).hasSize(2));
        }
    }

    @Test
    void shouldReportACallArrivingAfterItsHintedRunClosedOnItsGeneratorAsLate() throws Exception {
        try (var h = harness(SETTINGS)) {
            TestCalls a = TestCalls.run("bot", "trace-3", "alpha", 1);
            arrive(h, a.rewrite(0.0, 0.4));
            arrive(h, a.generate(1.1, 2.5));
            h.setProcessingTime(TestCalls.ms(2.5) + WAIT);
            assertThat(h.extractOutputValues()).singleElement().satisfies(r -> {
                assertThat(r.callIds()).hasSize(2);
                assertThat(r.incomplete()).isFalse();
            });

            // a proxy that flushed this one late: after the wait it is late, as it would be after the grace
            h.processElement(a.embed(0.45, 0.7), TestCalls.ms(0.7));
            assertThat(h.getSideOutput(AssembleRunsFunction.LATE)).extracting(StreamRecord::getValue)
                    .singleElement().satisfies(c -> assertThat(c.stage()).isEqualTo(Stage.EMBED));
            h.processWatermark(TestCalls.ms(2000));
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void shouldStillFlushCallsNoGeneratorClaimsOnlyOnEventTime() throws Exception {
        try (var h = harness(SETTINGS)) {
            TestCalls a = TestCalls.run("bot", null, "alpha", 1);
            TestCalls b = TestCalls.run("bot", null, "beta", 2);
            arrive(h, b.embed("embed", 0.2, 0.3, 200, b.question)); // a run whose generator never comes
            arrive(h, a.rewrite(0.0, 0.4));
            arrive(h, a.generate(1.1, 2.5));
            h.setProcessingTime(TestCalls.ms(500)); // long past every wait, and past the run timeout
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(r -> assertThat(r.incomplete()).isFalse());

            h.processWatermark(TestCalls.ms(200));
            assertThat(h.extractOutputValues()).hasSize(2).filteredOn(Run::incomplete).singleElement()
                    .satisfies(r -> assertThat(r.callIds()).hasSize(1));
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void shouldKeepALaterRunsPromptCloseWhenAnEarlierTimerFindsOnlyItsCalls() throws Exception {
        try (var h = harness(SETTINGS)) {
            TestCalls a = TestCalls.run("bot", null, "alpha", 1);
            TestCalls b = TestCalls.run("bot", null, "beta", 2);
            for (ClassifiedCall c : List.of(a.rewrite(0.0, 0.4), a.embed(0.45, 0.7), a.generate(1.1, 2.5))) {
                arrive(h, c);
            }
            h.setProcessingTime(TestCalls.ms(2.5) + WAIT);
            assertThat(h.extractOutputValues()).hasSize(1); // alpha, closed on its generator's arrival
            for (ClassifiedCall c : List.of(b.rewrite(5.0, 5.4), b.embed(5.45, 5.7), b.generate(6.1, 7.5))) {
                arrive(h, c);
            }

            // alpha's event-time timer (2.5 s + grace) fires while only beta's calls, all started later, are buffered
            h.processWatermark(TestCalls.ms(4.6));
            assertThat(h.extractOutputValues()).hasSize(1);
            h.setProcessingTime(TestCalls.ms(7.5) + WAIT);
            assertThat(h.extractOutputValues()).hasSize(2).last()
                    .satisfies(r -> assertThat(r.callIds()).containsExactlyInAnyOrder("beta-rewrite", "beta-embed",
                            "beta-generate"));

            h.processWatermark(TestCalls.ms(1000));
            assertThat(h.extractOutputValues()).hasSize(2);
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void shouldDropTheWaitOfARunTheWatermarkClosedFirstWhetherOrNotTheTaskWasRestored() throws Exception {
        for (boolean restore : new boolean[] {false, true}) {
            TestCalls a = TestCalls.run("bot", null, "alpha", 1);
            OperatorSubtaskState snapshot;
            try (var h = harness(SETTINGS)) {
                arrive(h, a.rewrite(0.0, 0.4));
                arrive(h, a.generate(1.1, 2.5));
                assertThat(h.numProcessingTimeTimers()).as("the wait's and the key's state sweep").isEqualTo(2);
                snapshot = h.snapshot(1L, h.getProcessingTime());
                if (!restore) {
                    closeByWatermarkBeforeTheWait(h, 0);
                }
            }
            if (restore) {
                // the prompt close was written before the restore: the task asks its state, as it cannot know
                try (var h = restored(snapshot)) {
                    // nor can it know the sweep scheduled before: that timer stays, to fire as a sweep of nothing
                    closeByWatermarkBeforeTheWait(h, 1);
                }
            }
        }
    }

    private static void closeByWatermarkBeforeTheWait(
            KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h, int sweepsLeft) throws Exception {
        h.processWatermark(TestCalls.ms(2.5) + SETTINGS.grace().toMillis());
        assertThat(h.extractOutputValues()).singleElement().satisfies(r -> assertThat(r.callIds()).hasSize(2));
        assertThat(h.numProcessingTimeTimers()).as("the wait's timer and the sweep, deleted").isEqualTo(sweepsLeft);
        assertThat(h.numKeyedStateEntries()).isZero();
        h.setProcessingTime(TestCalls.ms(2.5) + WAIT);
        assertThat(h.extractOutputValues()).hasSize(1);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> restored(
            OperatorSubtaskState snapshot) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new AssembleRunsFunction(SETTINGS)), ClassifiedCall::runKey, Types.STRING);
        h.setup();
        h.initializeState(snapshot);
        h.open();
        return h;
    }
}

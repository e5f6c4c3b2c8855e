package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Passage;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AssembleRunsFunctionTest {

    private KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness;

    @BeforeEach
    void setUp() throws Exception {
        harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS), ClassifiedCall::runKey, Types.STRING);
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private void send(ClassifiedCall call) throws Exception {
        harness.processElement(call, call.event().endedAt().toEpochMilli());
    }

    private List<Run> runs() {
        return runs(harness);
    }

    private static List<Run> runs(KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h) {
        return h.extractOutputValues().stream().sorted(Comparator.comparing(Run::startedAt)).toList();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> restored(
            OperatorSubtaskState snapshot) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new AssembleRunsFunction(AssemblySettings.DEFAULTS)), ClassifiedCall::runKey,
                Types.STRING);
        h.setup();
        h.initializeState(snapshot);
        h.open();
        return h;
    }

    private void assertStateCleared() {
        assertThat(harness.numKeyedStateEntries()).as("keyed state entries").isZero();
        assertThat(harness.numEventTimeTimers()).as("event-time timers").isZero();
    }

    @Test
    void shouldSeparateInterleavedRunsWithoutHints() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        TestCalls b = TestCalls.run("bot", null, "beta", 2);
        for (ClassifiedCall c : TestCalls.interleaved(a, b)) {
            send(c);
        }

        harness.processWatermark(TestCalls.ms(10));
        List<Run> runs = runs();
        assertThat(runs).hasSize(2);
        assertRunOf(runs.get(0), a);
        assertRunOf(runs.get(1), b);

        harness.processWatermark(TestCalls.ms(1000));
        assertThat(harness.extractOutputValues()).hasSize(2);
        assertStateCleared();
    }

    private static void assertRunOf(Run run, TestCalls calls) {
        assertThat(run.question()).isEqualTo(calls.question);
        assertThat(run.incomplete()).isFalse();
        assertThat(run.callIds()).hasSize(5).allSatisfy(id -> assertThat(id).startsWith(calls.tag + "-"));
        assertThat(run.stages().rewrite().outputs()).containsExactly(calls.query);
        assertThat(run.stages().embed().texts()).containsExactly(calls.query);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id)
                .containsExactlyElementsOf(calls.retrieved.stream().map(Passage::id).toList());
        assertThat(run.stages().retrieve().reconstructed()).isFalse();
        assertThat(run.stages().rerank().output()).extracting(Passage::id)
                .containsExactly(calls.retrieved.get(2).id(), calls.retrieved.get(0).id());
        assertThat(run.stages().rerank().topN()).isEqualTo(2);
        assertThat(run.stages().generate().context()).extracting(Passage::id)
                .containsExactly(calls.retrieved.get(2).id(), calls.retrieved.get(0).id());
        assertThat(run.stages().generate().answer()).isEqualTo("The fact is " + calls.tag + ".");
    }

    @Test
    void shouldAssembleCallsArrivingOutOfOrder() throws Exception {
        TestCalls a = TestCalls.run("bot", "trace-1", "alpha", 1);
        send(a.generate(1.1, 2.5));
        send(a.rerank(0.75, 1.1));
        send(a.rewrite(0.0, 0.4));
        send(a.retrieve(0.7, 0.75));
        send(a.embed(0.45, 0.7));

        harness.processWatermark(TestCalls.ms(5));
        assertThat(runs()).singleElement().satisfies(run -> {
            assertRunOf(run, a);
            assertThat(run.runHint()).isEqualTo("trace-1");
        });
    }

    @Test
    void shouldLinkOutOfOrderUnhintedCallsOnlyOnceTheGraceHasPassed() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        send(a.generate(1.1, 2.5));
        harness.processWatermark(TestCalls.ms(3.0)); // within the 2 s grace: the run waits
        assertThat(runs()).isEmpty();
        send(a.rewrite(0.0, 0.4));
        send(a.embed(0.45, 0.7));
        send(a.retrieve(0.7, 0.75));
        send(a.rerank(0.75, 1.1));
        harness.processWatermark(TestCalls.ms(4.6));
        assertThat(runs()).singleElement().satisfies(run -> assertRunOf(run, a));
    }

    @Test
    void shouldMarkAbsentOptionalStagesAndKeepTheQuestionFromTheGenerator() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        // no rewriter: the question itself is embedded; no reranker: the generator gets the top three passages
        send(a.embed("embed", 0.0, 0.1, 200, a.question));
        send(a.retrieve(0.1, 0.2));
        send(a.generateWithContext(0.2, 1.2, a.retrieved.subList(0, 3)));
        harness.processWatermark(TestCalls.ms(5));

        Run run = runs().get(0);
        assertThat(run.stages().rewrite().present()).isFalse();
        assertThat(run.stages().rerank().present()).isFalse();
        assertThat(run.has(Stage.EMBED)).isTrue();
        assertThat(run.question()).isEqualTo(a.question);
        assertThat(run.stages().generate().context()).hasSize(3);
        assertThat(run.callIds()).hasSize(3);
    }

    @Test
    void shouldReconstructRetrievalFromTheRerankerInputWhenNoRetrievalCallWasLogged() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        send(a.rewrite(0.0, 0.4));
        send(a.embed(0.45, 0.7));
        send(a.rerank(0.75, 1.1));
        send(a.generate(1.1, 2.5));
        harness.processWatermark(TestCalls.ms(10));

        Run run = runs().get(0);
        assertThat(run.stages().retrieve().present()).isTrue();
        assertThat(run.stages().retrieve().reconstructed()).isTrue();
        assertThat(run.stages().retrieve().passages()).extracting(Passage::text)
                .containsExactlyElementsOf(a.retrieved.stream().map(Passage::text).toList());
    }

    @Test
    void shouldTakeAStragglerThatArrivesWithinTheGrace() throws Exception {
        TestCalls a = TestCalls.run("bot", "trace-9", "alpha", 1);
        send(a.rewrite(0.0, 0.4));
        send(a.retrieve(0.7, 0.75));
        send(a.rerank(0.75, 1.1));
        send(a.generate(1.1, 2.5));
        harness.processWatermark(TestCalls.ms(3.0));
        send(a.embed(0.45, 0.7)); // logged late by a buffering proxy, still inside the grace
        harness.processWatermark(TestCalls.ms(10));
        assertThat(runs()).singleElement().satisfies(run -> assertThat(run.callIds()).hasSize(5));
    }

    @Test
    void shouldReportACallForAnAlreadyClosedHintedRunAsLate() throws Exception {
        TestCalls a = TestCalls.run("bot", "trace-7", "alpha", 1);
        send(a.rewrite(0.0, 0.4));
        send(a.generate(1.1, 2.5));
        harness.processWatermark(TestCalls.ms(10));
        ClassifiedCall late = a.embed(0.45, 0.7);
        send(late.forAssembly()); // as the classify task hands it over: bodies as bytes

        assertThat(runs()).hasSize(1);
        assertThat(harness.getSideOutput(AssembleRunsFunction.LATE)).extracting(StreamRecord::getValue)
                .singleElement().satisfies(c -> {
                    assertThat(c.stage()).isEqualTo(Stage.EMBED);
                    // dead-lettered whole: the bodies it was captured with
                    assertThat(c.wholeEvent()).isEqualTo(late.event());
                    assertThat(c.wholeEvent().request().body()).isNotNull();
                });
        harness.processWatermark(TestCalls.ms(2000));
        assertStateCleared();
    }

    @Test
    void shouldFlushAnIncompleteRunWhenNoGeneratorArrives() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        TestCalls b = TestCalls.run("bot", null, "beta", 2);
        send(a.rewrite(0.0, 0.4));
        send(a.embed(0.45, 0.7));
        send(a.retrieve(0.7, 0.75));
        send(b.embed("embed", 0.2, 0.3, 200, b.question));
        harness.processWatermark(TestCalls.ms(100));
        assertThat(runs()).isEmpty();

        harness.processWatermark(TestCalls.ms(200));
        List<Run> runs = runs();
        assertThat(runs).hasSize(2).allSatisfy(r -> assertThat(r.incomplete()).isTrue());
        assertThat(runs).filteredOn(r -> r.callIds().size() == 3).singleElement().satisfies(r -> {
            assertThat(r.question()).isEqualTo(a.question);
            assertThat(r.incompleteReason()).contains("no generator call within 120s");
            assertThat(IncompleteRuns.orphan(r)).isFalse();
        });
        // beta's lone embedding call carries no question of its own: an orphan, told apart by its reason
        assertThat(runs).filteredOn(r -> r.callIds().size() == 1).singleElement().satisfies(r -> {
            assertThat(r.incompleteReason()).startsWith(IncompleteRuns.ORPHAN_PREFIX).contains("120s");
            assertThat(IncompleteRuns.orphan(r)).isTrue();
        });
        assertStateCleared();
    }

    @Test
    void shouldAttachRetriedCallsAndRecordTheirErrors() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        send(a.rewrite(0.0, 0.4));
        send(a.embed("embed-429", 0.45, 0.5, 429, a.query));
        send(a.embed("embed", 1.5, 1.7, 200, a.query));
        send(a.retrieve(1.7, 1.75));
        send(a.rerank(1.75, 2.1));
        send(a.generate("generate-503", 2.1, 2.4, 503, List.of(a.retrieved.get(2), a.retrieved.get(0))));
        send(a.generate("generate", 3.0, 4.0, 200, List.of(a.retrieved.get(2), a.retrieved.get(0))));
        harness.processWatermark(TestCalls.ms(10));

        Run run = runs().get(0);
        assertThat(run.callIds()).hasSize(7);
        assertThat(run.httpErrors()).extracting(e -> e.stage().id() + ":" + e.status())
                .containsExactlyInAnyOrder("embed:429", "generate:503");
        assertThat(run.stages().generate().answer()).isEqualTo("The fact is alpha.");
        harness.processWatermark(TestCalls.ms(1000));
        assertStateCleared();
    }

    @Test
    void shouldKeepRunIdsStableForTheSameCalls() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        send(a.rewrite(0.0, 0.4));
        send(a.generate(1.1, 2.5));
        harness.processWatermark(TestCalls.ms(10));
        String first = runs().get(0).runId();

        try (var again = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS), ClassifiedCall::runKey, Types.STRING)) {
            again.processElement(a.generate(1.1, 2.5), TestCalls.ms(2.5));
            again.processElement(a.rewrite(0.0, 0.4), TestCalls.ms(0.4));
            again.processWatermark(TestCalls.ms(10));
            assertThat(again.extractOutputValues()).singleElement()
                    .satisfies(r -> assertThat(r.runId()).isEqualTo(first));
        }
    }

    @Test
    void shouldGiveEachOfTwoConcurrentRunsOfTheSameQuestionItsOwnCalls() throws Exception {
        // same pipeline, no hints, the same question asked twice at once: identical texts, so only time separates them
        TestCalls first = TestCalls.run("bot", null, "alpha", 1);
        TestCalls second = new TestCalls("bot", null, "alpha2", first.question, first.query, first.vector,
                first.retrieved);
        send(first.embed("embed", 0.0, 0.1, 200, first.question));
        send(second.embed("embed", 0.5, 0.6, 200, second.question));
        send(first.retrieve(0.1, 0.2));
        send(second.retrieve(0.6, 0.7));
        send(first.generateWithContext(0.2, 1.2, first.retrieved.subList(0, 3)));
        send(second.generateWithContext(0.7, 1.7, second.retrieved.subList(0, 3)));
        harness.processWatermark(TestCalls.ms(10));

        List<Run> runs = runs();
        assertThat(runs).hasSize(2).allSatisfy(run -> {
            assertThat(run.has(Stage.EMBED)).isTrue();
            assertThat(run.has(Stage.RETRIEVE)).isTrue();
            assertThat(run.callIds()).hasSize(3);
            String tag = run.callIds().get(0).substring(0, run.callIds().get(0).indexOf('-'));
            assertThat(run.callIds()).allSatisfy(id -> assertThat(id).startsWith(tag + "-"));
        });
    }

    @Test
    void shouldLinkCallsBufferedBeforeARestoreWithThoseAfterIt() throws Exception {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        TestCalls b = TestCalls.run("bot", null, "beta", 2);
        List<ClassifiedCall> calls = TestCalls.interleaved(a, b);
        for (ClassifiedCall c : calls.subList(0, 4)) { // both rewrites and embeddings
            send(c);
        }
        OperatorSubtaskState snapshot = harness.snapshot(1L, TestCalls.ms(1));

        // the restored function starts with nothing on the heap: the first timer walks the key's state again
        try (var h = restored(snapshot)) {
            for (ClassifiedCall c : calls.subList(4, calls.size())) {
                h.processElement(c, c.event().endedAt().toEpochMilli());
            }
            h.processWatermark(TestCalls.ms(10));
            List<Run> runs = runs(h);
            assertThat(runs).hasSize(2);
            assertRunOf(runs.get(0), a);
            assertRunOf(runs.get(1), b);
            h.processWatermark(TestCalls.ms(1000));
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }
}

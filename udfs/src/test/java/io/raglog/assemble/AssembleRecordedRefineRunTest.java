package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * A LlamaIndex run over Supabase whose four rows overflow one prompt (its compact mode): the first generator call
 * answers from two rows, and a second, LlamaIndex's chat refine ("New Context: … Original Answer: … New Answer:"),
 * refines that answer with the other two; sent without a run hint. Read as two generators, the first closed the run
 * with half its rows "dropped" by assembly, and the refine made a run of its own. It is one run, its generator both
 * calls: every row reached the model, the answer is the refined one.
 */
class AssembleRecordedRefineRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";
    private static final String REFINED = "Acme Corp's operating cash flow in 2023 was $4.2 billion, up from $3.1 "
            + "billion in 2022.";
    private static final List<String> CALLS = List.of("openai-embed-query", "rpc-match-documents",
            "openai-chat-compact-first-step", "openai-chat-refine-step");

    @Test
    void shouldReadTheRefineStepAsTheLastCallOfTheGeneratorItContinues() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness = harness(
                AssemblySettings.DEFAULTS)) {
            for (ClassifiedCall c : calls(Duration.ZERO, "", null)) {
                harness.processElement(c, endOf(c));
            }
            harness.processWatermark(Long.MAX_VALUE - 1);

            assertThat(harness.extractOutputValues()).singleElement()
                    .satisfies(run -> assertWhole(run, "acme-ir-supabase-0011", "acme-ir-supabase-0012"));
            assertThat(harness.numEventTimeTimers()).isZero();
            // what the pipeline taught: its answers come in steps, so its next generator calls wait for them
            assertThat(harness.numKeyedStateEntries()).isOne();
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness(
            AssemblySettings settings) throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedProcessFunction(new AssembleRunsFunction(settings),
                ClassifiedCall::runKey, Types.STRING);
    }

    /**
     * Live, the first step's run closes before the refine arrives (here: event time passes the first step's end and
     * the grace). That refine is an orphan, never checked, and the pipeline is learned to answer in steps: its next
     * run waits for its refine, and comes out whole.
     */
    @Test
    void shouldLetALateRefineGoAsAnOrphanAndWaitForTheNextRunsRefine() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness = harness(
                AssemblySettings.DEFAULTS.eventTimeOnly())) {
            List<ClassifiedCall> first = calls(Duration.ZERO, "", null);
            for (ClassifiedCall c : first.subList(0, 3)) {
                harness.processElement(c, c.event().endedAt().toEpochMilli());
            }
            harness.processWatermark(endOf(first.get(2)) + 2_000);
            harness.processElement(first.get(3), endOf(first.get(3)));
            harness.processWatermark(endOf(first.get(3)) + 2_000);

            List<Run> runs = harness.extractOutputValues();
            assertThat(runs).hasSize(2);
            assertThat(runs.get(0).stages().generate().answer()).isNotEqualTo(REFINED);
            assertThat(runs.get(1).incomplete()).isTrue();
            assertThat(IncompleteRuns.orphan(runs.get(1))).isTrue();
            assertThat(runs.get(1).incompleteReason()).contains("came after that answer's run had closed");
            assertThat(runs.get(1).callIds()).containsExactly("acme-ir-supabase-0012");

            List<ClassifiedCall> next = calls(Duration.ofSeconds(30), "-next", null);
            for (ClassifiedCall c : next.subList(0, 3)) {
                harness.processElement(c, c.event().endedAt().toEpochMilli());
            }
            harness.processWatermark(endOf(next.get(2)) + 2_000); // the grace alone would close it here
            assertThat(harness.extractOutputValues()).hasSize(2);
            harness.processElement(next.get(3), endOf(next.get(3)));
            harness.processWatermark(Long.MAX_VALUE - 1);

            runs = harness.extractOutputValues();
            assertThat(runs).hasSize(3);
            assertWhole(runs.get(2), "acme-ir-supabase-0011-next", "acme-ir-supabase-0012-next");
            assertThat(harness.numEventTimeTimers()).isZero();
            assertThat(harness.numKeyedStateEntries()).isEqualTo(1); // what it learned: the wait for a refine
        }
    }

    /** The same, live: the prompt path closes the first step's run, then waits for the next run's refine. */
    @Test
    void shouldWaitOnThePromptPathForTheRefineOfAPipelineSeenToRefine() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness = harness(
                AssemblySettings.DEFAULTS)) {
            long wait = AssemblySettings.DEFAULTS.generatorWait().toMillis();
            List<ClassifiedCall> first = calls(Duration.ZERO, "", null);
            first.forEach(c -> arrive(harness, c));
            harness.setProcessingTime(endOf(first.get(3)) + wait);
            List<Run> runs = harness.extractOutputValues();
            assertThat(runs).hasSize(2);
            assertThat(runs.get(0).stages().generate().callIds()).containsExactly("acme-ir-supabase-0011");
            assertThat(runs.get(1).incompleteReason()).contains("came after that answer's run had closed");

            List<ClassifiedCall> next = calls(Duration.ofSeconds(30), "-next", null);
            next.subList(0, 3).forEach(c -> arrive(harness, c));
            harness.setProcessingTime(endOf(next.get(2)) + wait);
            assertThat(harness.extractOutputValues()).as("waiting for its refine").hasSize(2);
            arrive(harness, next.get(3));
            // twice the late refine's 1,067 ms, and a second more, after the refine arrived
            harness.setProcessingTime(endOf(next.get(3)) + 3_134);

            runs = harness.extractOutputValues();
            assertThat(runs).hasSize(3);
            assertWhole(runs.get(2), "acme-ir-supabase-0011-next", "acme-ir-supabase-0012-next");
        }
    }

    /**
     * A pipeline that sends run hints: its first run closed before its refine came, which is a late call; its next
     * runs, each a key of its own, wait for theirs, as the pipeline taught.
     */
    @Test
    void shouldTeachAHintedPipelineToWaitForItsRefineSteps() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness = harness(
                AssemblySettings.DEFAULTS)) {
            long wait = AssemblySettings.DEFAULTS.generatorWait().toMillis();
            List<ClassifiedCall> first = calls(Duration.ZERO, "", "run-1");
            first.forEach(c -> arrive(harness, c));
            harness.setProcessingTime(endOf(first.get(3)) + wait);
            assertThat(harness.extractOutputValues()).singleElement().satisfies(run -> assertThat(
                    run.stages().generate().callIds()).containsExactly("acme-ir-supabase-0011"));
            assertThat(harness.getSideOutput(AssembleRunsFunction.LATE)).extracting(r -> r.getValue().event().eventId())
                    .containsExactly("acme-ir-supabase-0012");

            List<ClassifiedCall> next = calls(Duration.ofSeconds(30), "-next", "run-2");
            next.subList(0, 3).forEach(c -> arrive(harness, c));
            harness.setProcessingTime(endOf(next.get(2)) + wait);
            assertThat(harness.extractOutputValues()).as("waiting for its refine").hasSize(1);
            arrive(harness, next.get(3));
            harness.setProcessingTime(endOf(next.get(3)) + 3_134);

            List<Run> runs = harness.extractOutputValues();
            assertThat(runs).hasSize(2);
            assertWhole(runs.get(1), "acme-ir-supabase-0011-next", "acme-ir-supabase-0012-next");
            assertThat(harness.getSideOutput(AssembleRunsFunction.LATE)).hasSize(1);
        }
    }

    /** A call arriving live: the processing clock reads its end time when its record arrives. */
    private static void arrive(KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness,
            ClassifiedCall call) {
        try {
            harness.setProcessingTime(Math.max(harness.getProcessingTime(), endOf(call)));
            harness.processElement(call, endOf(call));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertWhole(Run run, String firstStep, String refineStep) {
        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.stages().generate().callIds()).containsExactly(firstStep, refineStep);
        assertThat(run.stages().generate().answer()).isEqualTo(REFINED);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().generate().context()).extracting(Passage::id)
                .containsExactly("41", "44", "47", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
    }

    private static long endOf(ClassifiedCall c) {
        return c.event().endedAt().toEpochMilli();
    }

    /**
     * The recorded calls with {@code hint} for their run hint (null: none), moved {@code later} in time, their event
     * ids suffixed.
     */
    private static List<ClassifiedCall> calls(Duration later, String suffix, String hint) throws IOException {
        List<ClassifiedCall> out = new java.util.ArrayList<>();
        for (String file : CALLS) {
            CallEvent recorded;
            try (InputStream in = AssembleRecordedRefineRunTest.class.getResourceAsStream("/wire/supabase/" + file
                    + ".json")) {
                recorded = Json.MAPPER.readValue(in, CallEvent.class);
            }
            CallEvent call = new CallEvent(recorded.schema(), recorded.eventId() + suffix, recorded.pipeline(), hint,
                    recorded.startedAt().plus(later), recorded.endedAt().plus(later), recorded.request(),
                    recorded.response(), recorded.source());
            out.add(((Classification.Classified) BuiltInAdapters.classifier().classify(call)).call());
        }
        return out;
    }
}

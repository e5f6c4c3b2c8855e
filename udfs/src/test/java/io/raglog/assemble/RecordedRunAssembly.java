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
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Run assembly fed one vendor's recorded calls ({@code /wire/{vendor}/…}) without their run hint, as a pipeline that
 * sends none would: content alone must link them; or fed calls the test classified itself, as they are. A test's
 * extension ({@code @RegisterExtension}): a new assembly for each test, closed after it.
 */
final class RecordedRunAssembly implements BeforeEachCallback, AfterEachCallback {

    private final String vendor;
    private KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness;

    RecordedRunAssembly(String vendor) {
        this.vendor = vendor;
    }

    /** For calls the test classifies itself ({@link #theOneRunOf(List)}). */
    RecordedRunAssembly() {
        this(null);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS), ClassifiedCall::runKey, Types.STRING);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        harness.close();
    }

    /** The recorded calls sent without their run hint, in order; the one run they make, state and timers cleared. */
    Run theOneRunOf(String... files) throws Exception {
        List<ClassifiedCall> calls = new ArrayList<>();
        for (String file : files) {
            calls.add(unhinted(file));
        }
        return theOneRunOf(calls);
    }

    /** The calls sent in order, as they are; the one run they make, state and timers cleared. */
    Run theOneRunOf(List<ClassifiedCall> calls) throws Exception {
        List<Run> runs = runsOf(calls);
        assertThat(runs).hasSize(1);
        return runs.get(0);
    }

    /** The calls sent in order, as they are; the runs they make, state and timers cleared. */
    List<Run> runsOf(List<ClassifiedCall> calls) throws Exception {
        for (ClassifiedCall call : calls) {
            harness.processElement(call, call.event().endedAt().toEpochMilli());
        }
        harness.processWatermark(Long.MAX_VALUE - 1);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        return harness.extractOutputValues();
    }

    /**
     * A recorded call sent without its run hint, as another run of the same pipeline made it: its event id prefixed
     * with {@code tag}, its times {@code shiftMs} later.
     */
    ClassifiedCall unhinted(String file, String tag, long shiftMs) throws IOException {
        CallEvent recorded = recorded(file);
        CallEvent call = new CallEvent(recorded.schema(), tag + recorded.eventId(), recorded.pipeline(), null,
                recorded.startedAt().plusMillis(shiftMs), recorded.endedAt().plusMillis(shiftMs), recorded.request(),
                recorded.response(), recorded.source());
        return classified(file, call);
    }

    /**
     * Checks the recorded story's run of a retrieval, a reranker and a generator, linked without a hint: complete, of
     * {@code callIds}, its question the one retrieved with, no embedding call (the service embeds the question itself),
     * its retrieved passages named {@code retrievedIds}, the reranker keeping the first, third and second of them and
     * all three reaching the prompt whole, under the same names.
     */
    static void assertRetrievedRerankedAndAnswered(Run run, String question, List<String> callIds,
            List<String> retrievedIds) {
        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(question);
        assertThat(run.callIds()).containsExactlyInAnyOrderElementsOf(callIds);
        assertThat(run.stages().embed().present()).isFalse();
        assertThat(run.stages().retrieve().query()).isEqualTo(question);
        assertThat(run.stages().retrieve().reconstructed()).isFalse();
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactlyElementsOf(retrievedIds);
        List<String> kept = List.of(retrievedIds.get(0), retrievedIds.get(2), retrievedIds.get(1));
        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactlyElementsOf(kept);
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactlyElementsOf(kept);
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).startsWith("Acme Corp's operating cash flow in 2023");
    }

    /**
     * Checks the recorded story's run made by one call that retrieves and answers (a managed RAG): complete, its
     * generator handed {@code passages} passages, its retrieval rebuilt from them as the retrieval inside the call is
     * not seen.
     */
    static void assertRebuiltFromTheGeneratorsPassages(Run run, String question, int passages) {
        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(question);
        assertThat(run.stages().generate().context()).hasSize(passages);
        assertThat(run.stages().retrieve().reconstructed()).isTrue();
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id)
                .containsExactlyElementsOf(run.stages().generate().context().stream().map(Passage::id).toList());
        assertThat(run.stages().generate().answer()).startsWith("Acme Corp's operating cash flow in 2023");
    }

    private ClassifiedCall unhinted(String file) throws IOException {
        return unhinted(file, "", 0);
    }

    private CallEvent recorded(String file) throws IOException {
        try (InputStream in = RecordedRunAssembly.class.getResourceAsStream("/wire/" + vendor + "/" + file
                + ".json")) {
            return Json.MAPPER.readValue(in, CallEvent.class);
        }
    }

    private static ClassifiedCall classified(String file, CallEvent call) {
        Classification c = BuiltInAdapters.classifier().classify(call);
        assertThat(c).as(file).isInstanceOf(Classification.Classified.class);
        return ((Classification.Classified) c).call();
    }
}

package io.raglog.job;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.drift.EmbeddingDriftFunction;
import io.raglog.drift.IndexEmbedding;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.simulator.EmbeddingPlan;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * The drift operator on simulated traffic, as the job feeds it: the simulator's calls classified (index-building
 * embedding calls read for their model and dimension), assembled into runs, then runs and index calls in event-time
 * order through {@link EmbeddingDriftFunction}. Sound traffic raises nothing; the simulator's planted switch and
 * mismatched index are found, and only on the runs it labeled.
 */
class EmbeddingDriftSimulatedTest {

    /** What the drift operator said: the runs it passed on and its drift records. */
    private record Seen(List<Run> runs, List<EmbeddingDrift> drift, List<Label> labels) {}

    private static Seen through(SimulatorOptions options) throws Exception {
        MemorySink simulated = new MemorySink();
        new Simulator(options).run(simulated);
        CallClassifier classifier = BuiltInAdapters.classifier();
        List<ClassifiedCall> calls = new ArrayList<>();
        List<IndexEmbedding> indexCalls = new ArrayList<>();
        List<CallEvent> events = new ArrayList<>(simulated.calls());
        events.sort(Comparator.comparing(CallEvent::endedAt).thenComparing(CallEvent::eventId));
        for (CallEvent e : events) {
            if (classifier.classify(e) instanceof Classification.Classified c) {
                if (c.call().stage() == null || c.call().detail() instanceof NotARunCall) {
                    IndexEmbedding index = IndexEmbeddings.read(c.call());
                    if (index != null) {
                        indexCalls.add(index);
                    }
                } else {
                    calls.add(c.call().forAssembly());
                }
            }
        }
        List<Run> runs = new ArrayList<>(StreamedAssembly.of(calls).runs());
        runs.sort(Comparator.comparing(Run::endedAt).thenComparing(Run::runId));
        var h = new KeyedOneInputStreamOperatorTestHarness<String, Either<Run, IndexEmbedding>, Run>(
                new KeyedProcessOperator<>(new EmbeddingDriftFunction()),
                EmbeddingDriftFunction::pipelineOf, Types.STRING);
        h.setup();
        h.open();
        int r = 0;
        int i = 0;
        while (r < runs.size() || i < indexCalls.size()) {
            Instant runAt = r < runs.size() ? runs.get(r).endedAt() : Instant.MAX;
            Instant indexAt = i < indexCalls.size() ? indexCalls.get(i).at() : Instant.MAX;
            if (indexAt.isBefore(runAt)) {
                h.processElement(Either.Right(indexCalls.get(i++)), indexAt.toEpochMilli());
            } else {
                h.processElement(Either.Left(runs.get(r++)), runAt.toEpochMilli());
            }
        }
        h.processWatermark(new Watermark(Long.MAX_VALUE));
        List<Run> out = h.extractOutputValues();
        var side = h.getSideOutput(EmbeddingDriftFunction.DRIFT);
        List<EmbeddingDrift> drift = side == null ? List.of() : side.stream().map(StreamRecord::getValue).toList();
        h.close();
        return new Seen(out, drift, simulated.labels());
    }

    @Test
    void shouldRaiseNoMismatchOnTwoThousandSoundSimulatedRuns() throws Exception {
        Seen seen = through(SimulatorOptions.of("all", 2000, 31).withIndexEvery(10));
        long withEmbed = seen.runs().stream().filter(r -> !r.incomplete() && r.stages().embed().present()).count();
        assertThat(withEmbed).as("complete runs with an embed stage").isGreaterThan(1_500);
        assertThat(seen.runs().stream().filter(r -> r.embeddingMismatch() != null).map(Run::runId).toList())
                .as("runs flagged as an embedding mismatch").isEmpty();
        assertThat(seen.drift().stream().map(EmbeddingDrift::text).toList()).as("drift records").isEmpty();
    }

    @Test
    void shouldFindThePlantedSwitchAndMismatchedIndexOnTheRunsTheSimulatorLabeled() throws Exception {
        int switchAfter = 100;
        EmbeddingPlan plan = EmbeddingPlan.switchAt("support-assistant:" + switchAfter + ":text-embedding-ada-002")
                .withIndex("search-answers:text-embedding-ada-002");
        Seen seen = through(SimulatorOptions.of("openai-qdrant-cohere,elastic-voyage-responses", 800, 37)
                .withIndexEvery(10).withEmbeddingPlan(plan));

        Map<String, Label> labels = new HashMap<>();
        seen.labels().forEach(l -> labels.put(l.runId(), l));
        List<Run> flagged = seen.runs().stream().filter(r -> r.embeddingMismatch() != null).toList();
        assertThat(flagged).isNotEmpty();
        // every flagged run is one the simulator planted
        assertThat(flagged).allSatisfy(r -> assertThat(labels.get(r.runId()).faultDetail() == null
                || labels.get(r.runId()).stages().embed() == 1).isTrue());
        assertThat(flagged).allSatisfy(r -> assertThat(labels.get(r.runId()).stages().embed()).isEqualTo(1));

        // the mismatched index: seen on its index-building calls, flagged from the first batch on
        List<Run> search = seen.runs().stream().filter(r -> r.pipeline().equals("search-answers")).toList();
        long searchFlagged = search.stream().filter(r -> r.embeddingMismatch() != null).count();
        assertThat(searchFlagged).isGreaterThanOrEqualTo(search.size() - 12);
        assertThat(seen.drift()).anySatisfy(d -> {
            assertThat(d.pipeline()).isEqualTo("search-answers");
            assertThat(d.kind()).isEqualTo(EmbeddingDrift.INDEX_MISMATCH);
        });

        // the switch: a drift record within 100 runs of that pipeline after it
        List<Run> support = seen.runs().stream().filter(r -> r.pipeline().equals("support-assistant"))
                .sorted(Comparator.comparing(Run::endedAt)).toList();
        Run firstSwitched = support.stream().filter(r -> "text-embedding-ada-002".equals(
                r.stages().embed().model())).findFirst().orElseThrow();
        EmbeddingDrift changed = seen.drift().stream().filter(d -> d.pipeline().equals("support-assistant")
                && d.kind().equals(EmbeddingDrift.MODEL_CHANGED)).findFirst().orElseThrow();
        int switchedAt = support.indexOf(firstSwitched);
        int detectedAt = support.indexOf(support.stream().filter(r -> r.runId().equals(changed.runId()))
                .findFirst().orElseThrow());
        assertThat(detectedAt - switchedAt).isBetween(0, 100);
        assertThat(changed.before().model()).isEqualTo("text-embedding-3-small");
        assertThat(changed.after().model()).isEqualTo("text-embedding-ada-002");
        // the index-building calls of support-assistant name text-embedding-3-small: its later runs are mismatches
        assertThat(support.get(support.size() - 1).embeddingMismatch()).isNotNull();
        assertThat(support.get(support.size() - 1).embeddingMismatch().indexModel())
                .isEqualTo("text-embedding-3-small");
    }
}

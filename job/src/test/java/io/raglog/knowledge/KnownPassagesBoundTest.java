package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.checks.RunBuilder;
import io.raglog.drift.IndexEmbedding;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;

/**
 * The known passages match each candidate from the words their index keeps for it, and read from state only the texts
 * of the candidates that can be kept; that must give every run the same second opinion as reading every candidate's
 * text and matching its words. Simulated traffic of every profile, with index-building calls mixed in so that the
 * known passages hold most of the corpus, through the operator both ways.
 */
class KnownPassagesBoundTest {

    /** One input in time order: a run, or an index-building call. */
    record Input(Instant at, Run run, IndexBuildingCall index) {}

    @Test
    void shouldGiveEveryRunTheSameSecondOpinionAsMatchingEveryCandidatesText() throws Exception {
        List<Input> inputs = inputs(SimulatorOptions.of("all", 1_500, 29).withIndexEvery(4));
        List<String> fromIndex = secondOpinions(inputs, false);
        List<String> exhaustive = secondOpinions(inputs, true);
        assertThat(fromIndex).hasSizeGreaterThan(1_000).containsExactlyElementsOf(exhaustive);
        assertThat(exhaustive.stream().filter(o -> o.contains("\"unreturned\":[{")).count())
                .as("runs given an unreturned passage").isGreaterThan(500);
    }

    /**
     * A word held by more than {@code COMMON_WORD} passages is not listed, but still counts in a match: here it lifts
     * a candidate with less listed weight above the two with more, and the index's words for it must hold it.
     */
    @Test
    void shouldLeaveRoomForAWordTooCommonToList() throws Exception {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        String pipeline = RunBuilder.healthy().build().pipeline();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < KnownPassagesFunction.COMMON_WORD + 400; i++) {
            StringBuilder text = new StringBuilder("entry").append(i);
            if (i % 8 != 0) {
                text.append(" report"); // 2,100 passages: too common to list
            }
            if (i < 300) {
                text.append(" glacier");
            } else if (i < 620) {
                text.append(" orchard"); // a little more common than glacier, so it weighs a little less
            }
            if (i == 0 || i == 8 || i == 305) {
                text.append(" harbour"); // 0 and 8: harbour + glacier, no report; 305: harbour + orchard + report
            }
            texts.add(text.toString());
        }
        List<Input> inputs = List.of(
                new Input(t, null, IndexBuildingCall.of(null, new IndexedPassages(pipeline, texts, t))),
                new Input(t.plusSeconds(1), RunBuilder.healthy().runId("run-harbour")
                        .question("What does the report say about the harbour, the glacier and the orchard?").build(),
                        null));
        List<String> exhaustive = secondOpinions(inputs, true);
        assertThat(exhaustive.get(0)).as("the passage with the unlisted word is the best")
                .contains("entry305 report orchard harbour");
        assertThat(secondOpinions(inputs, false)).containsExactlyElementsOf(exhaustive);
    }

    /**
     * Indexing showed a passage with a document instruction ("passage: "), which its key leaves out, and a run was then
     * handed it with its store id and without the instruction: the text in state is now the run's. A later match must
     * be that text's, not the indexed one's, whose words held "passage".
     */
    @Test
    void shouldMatchAPassageByTheTextAfterARunGaveItsId() throws Exception {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        String pipeline = RunBuilder.healthy().build().pipeline();
        String handed = "The glacier harbour report was filed in spring.";
        List<String> texts = new ArrayList<>(List.of("passage: " + handed));
        for (int i = 0; i < 20; i++) {
            texts.add("entry" + i + " glacier survey");
        }
        Passage withId = new Passage("doc-7#1", handed, 0.5, 1);
        List<Input> inputs = List.of(
                new Input(t, null, IndexBuildingCall.of(null, new IndexedPassages(pipeline, texts, t))),
                new Input(t.plusSeconds(1), RunBuilder.healthy().runId("run-handed").retrieved(withId)
                        .reranked(withId).context(withId).build(), null),
                new Input(t.plusSeconds(2), RunBuilder.healthy().runId("run-asking")
                        .question("Which passage says when the glacier harbour report was filed?").build(), null));
        List<String> exhaustive = secondOpinions(inputs, true);
        assertThat(exhaustive.get(1)).as("the passage, under its store id").contains("doc-7#1");
        assertThat(secondOpinions(inputs, false)).containsExactlyElementsOf(exhaustive);
    }

    static List<String> secondOpinions(List<Input> inputs, boolean matchFromTexts) throws Exception {
        try (var h = harness(new KnownPassagesFunction(KnownPassagesFunction.DEFAULT_MAX_PASSAGES, matchFromTexts),
                null)) {
            h.open();
            feed(h, inputs);
            return secondOpinions(h);
        }
    }

    /** The operator in Flink's test harness, set up and not yet opened; on the heap when {@code backend} is null. */
    static KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall, Either<Run, IndexEmbedding>> harness(
            KnownPassagesFunction function, StateBackend backend) throws Exception {
        var h = new KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall,
                Either<Run, IndexEmbedding>>(new KeyedCoProcessOperator<>(function), Run::pipeline,
                IndexBuildingCall::pipeline, Types.STRING);
        if (backend != null) {
            h.setStateBackend(backend);
        }
        h.setup(KnownPassagesFunction.OUTPUT.createSerializer(h.getExecutionConfig().getSerializerConfig()));
        return h;
    }

    static void feed(KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall,
            Either<Run, IndexEmbedding>> h, List<Input> inputs) throws Exception {
        for (Input in : inputs) {
            if (in.run() != null) {
                h.processElement1(in.run(), in.at().toEpochMilli());
            } else {
                h.processElement2(in.index(), in.at().toEpochMilli());
            }
        }
    }

    /** Each run's id and second opinion, in the order they left. */
    static List<String> secondOpinions(KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall,
            Either<Run, IndexEmbedding>> h) {
        List<String> out = new ArrayList<>();
        for (Either<Run, IndexEmbedding> e : h.extractOutputValues()) {
            if (e.isLeft()) {
                out.add(e.left().runId() + " " + Json.write(e.left().knownPassages()));
            }
        }
        return out;
    }

    static List<Input> inputs(SimulatorOptions options) {
        MemorySink sink = new MemorySink();
        new Simulator(options).run(sink);
        CallClassifier classifier = BuiltInAdapters.classifier();
        List<Input> inputs = new ArrayList<>();
        Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
        for (CallEvent call : sink.calls()) {
            if (classifier.classify(call) instanceof Classification.Classified c) {
                if (c.call().stage() != null) {
                    byKey.computeIfAbsent(c.call().runKey(), k -> new ArrayList<>()).add(c.call().forAssembly());
                } else {
                    IndexBuildingCall index = IndexBuildingCall.of(IndexEmbeddings.read(c.call()),
                            IndexedPassages.read(c.call()));
                    if (index != null) {
                        inputs.add(new Input(call.endedAt(), null, index));
                    }
                }
            }
        }
        for (List<ClassifiedCall> pending : byKey.values()) {
            CallEvent first = pending.get(0).event();
            for (RunLinker.Assembled a : RunLinker.link(first.pipeline(), first.runHint(), pending,
                    Long.MAX_VALUE / 4, AssemblySettings.DEFAULTS)) {
                inputs.add(new Input(a.run().endedAt(), a.run(), null));
            }
        }
        inputs.sort(Comparator.comparing(Input::at));
        return inputs;
    }
}

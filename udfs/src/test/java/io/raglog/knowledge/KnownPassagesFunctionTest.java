package io.raglog.knowledge;

import static io.raglog.checks.RunBuilder.CAPEX_2023;
import static io.raglog.checks.RunBuilder.CASH_2023;
import static io.raglog.checks.RunBuilder.REVENUE_2022;
import static io.raglog.checks.RunBuilder.WEATHER;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.RunBuilder;
import io.raglog.drift.IndexEmbedding;
import io.raglog.schemas.KnownPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KnownPassagesFunctionTest {

    private static final Passage LISBON_TRAMS = new Passage("doc-9#5",
            "Lisbon's yellow trams climb the hills of Alfama and Graça every few minutes.", 0.40, 1);

    private Harness harness;

    @BeforeEach
    void setUp() throws Exception {
        harness = harness(KnownPassagesFunction.DEFAULT_MAX_PASSAGES, null);
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    /** Runs in, index-building calls in; runs with their second opinion out, and the calls' models for the drift. */
    private static final class Harness extends
            KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall, Either<Run, IndexEmbedding>> {
        Harness(int max) throws Exception {
            super(new KeyedCoProcessOperator<>(new KnownPassagesFunction(max)), Run::pipeline,
                    IndexBuildingCall::pipeline, Types.STRING);
        }

        void index(IndexEmbedding embedding, IndexedPassages documents) throws Exception {
            processElement2(IndexBuildingCall.of(embedding, documents), 0L);
        }
    }

    private static Harness harness(int max, OperatorSubtaskState restoreFrom) throws Exception {
        var h = new Harness(max);
        // Either carries no type of its own: the output's serializer is the one the job declares
        h.setup(KnownPassagesFunction.OUTPUT.createSerializer(h.getExecutionConfig().getSerializerConfig()));
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    private static Run send(Harness h, Run run) throws Exception {
        int before = h.extractOutputValues().size();
        h.processElement1(run, 0L);
        List<Either<Run, IndexEmbedding>> out = h.extractOutputValues();
        assertThat(out).hasSize(before + 1);
        assertThat(out.get(out.size() - 1).isLeft()).as("a run comes out as a run").isTrue();
        return out.get(out.size() - 1).left();
    }

    /** An earlier question whose retrieval handed on the cash-flow, revenue and capex passages. */
    private static Run earlier() {
        return RunBuilder.healthy().runId("run-earlier").question("How did Acme Corp's revenue and capex change?")
                .retrieved(CASH_2023, REVENUE_2022, CAPEX_2023).reranked(REVENUE_2022, CAPEX_2023).build();
    }

    @Test
    void shouldGiveNoOpinionBeforeThePipelineHasKnownPassages() throws Exception {
        Run first = send(harness, earlier());

        assertThat(first.knownPassages()).isNull();
        assertThat(first).isEqualTo(earlier()); // passed on unchanged
    }

    @Test
    void shouldPointAtTheKnownPassageThatRetrievalMissed() throws Exception {
        send(harness, earlier());

        Run missed = send(harness, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER, LISBON_TRAMS)
                .reranked(WEATHER).build());

        KnownPassages known = missed.knownPassages();
        assertThat(known.held()).isEqualTo(3);
        assertThat(known.unreturned()).isNotEmpty();
        assertThat(known.unreturned().get(0).id()).isEqualTo(CASH_2023.id());
        assertThat(known.unreturned().get(0).rank()).isEqualTo(1);
        assertThat(known.unreturned()).extracting(Passage::id).doesNotContain(WEATHER.id(), LISBON_TRAMS.id());
        assertThat(known.returnedMatch()).isLessThan(0.2);
        assertThat(known.matchGain()).isGreaterThan(0.5);
    }

    @Test
    void shouldFindNothingBetterWhenRetrievalReturnedTheBestKnownPassage() throws Exception {
        send(harness, earlier());

        Run sound = send(harness, RunBuilder.healthy().runId("run-sound").retrieved(CASH_2023, WEATHER)
                .reranked(CASH_2023).build());

        assertThat(sound.knownPassages().returnedMatch()).isGreaterThan(0.8);
        assertThat(sound.knownPassages().matchGain()).isLessThan(0.0);
    }

    @Test
    void shouldFindNothingBetterForAQuestionNoKnownPassageIsAbout() throws Exception {
        send(harness, earlier());
        send(harness, RunBuilder.healthy().runId("run-weather").question("Is the weather in Lisbon mild?")
                .retrieved(WEATHER).reranked(WEATHER).build());

        Run gap = send(harness, RunBuilder.healthy().runId("run-gap")
                .question("Who designed the Lisbon tram network's yellow cars?").retrieved(LISBON_TRAMS).reranked(LISBON_TRAMS).build());

        assertThat(gap.knownPassages().unreturned()).extracting(Passage::id).doesNotContain(LISBON_TRAMS.id());
        assertThat(gap.knownPassages().matchGain()).isLessThan(0.0);
    }

    @Test
    void shouldKeepEachPipelinesPassagesApart() throws Exception {
        send(harness, earlier());

        Run other = send(harness, RunBuilder.healthy().runId("run-other").retrieved(WEATHER).reranked(WEATHER).build());
        Run elsewhere = send(harness, new Run(other.schema(), "run-elsewhere", "another-pipeline", null,
                other.question(), other.startedAt(), other.endedAt(), false, null, other.callIds(), other.httpErrors(),
                other.stages()));

        assertThat(other.knownPassages()).isNotNull();
        assertThat(elsewhere.knownPassages()).as("another pipeline knows nothing yet").isNull();
    }

    @Test
    void shouldLearnFromIncompleteRunsWithoutJudgingThem() throws Exception {
        Run built = earlier();
        Run incomplete = new Run(built.schema(), built.runId(), built.pipeline(), null, built.question(),
                built.startedAt(), built.endedAt(), true, "no generator call", built.callIds(), built.httpErrors(),
                built.stages());
        send(harness, incomplete);

        Run next = send(harness, incomplete);
        Run missed = send(harness, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER).reranked(WEATHER).build());

        assertThat(next.knownPassages()).as("an incomplete run is never checked").isNull();
        assertThat(missed.knownPassages().unreturned().get(0).id()).isEqualTo(CASH_2023.id());
    }

    @Test
    void shouldKeepAtMostTheCapAndCountTheRest() throws Exception {
        var capped = harness(2, null);
        try {
            send(capped, earlier());
            Run missed = send(capped, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER).reranked(WEATHER).build());

            assertThat(missed.knownPassages().held()).isEqualTo(2);
        } finally {
            capped.close();
        }
    }

    @Test
    void shouldKnowAfterRestoreWhatItKnewAtTheSnapshot() throws Exception {
        send(harness, earlier());
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);

        var restored = harness(KnownPassagesFunction.DEFAULT_MAX_PASSAGES, snapshot);
        try {
            Run missed = send(restored, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER).reranked(WEATHER).build());

            assertThat(missed.knownPassages().held()).isEqualTo(3);
            assertThat(missed.knownPassages().unreturned().get(0).id()).isEqualTo(CASH_2023.id());
        } finally {
            restored.close();
        }
    }

    @Test
    void shouldKnowWhatTheIndexBuildingCallsEmbeddedBeforeAnyRunIsHandedIt() throws Exception {
        harness.index(null, new IndexedPassages(earlier().pipeline(), List.of(CASH_2023.text(),
                REVENUE_2022.text(), CAPEX_2023.text()), Instant.EPOCH));

        Run missed = send(harness, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER).reranked(WEATHER).build());

        KnownPassages known = missed.knownPassages();
        assertThat(known.held()).isEqualTo(3);
        assertThat(known.unreturned().get(0).text()).isEqualTo(CASH_2023.text());
        assertThat(known.unreturned().get(0).id()).as("no run named it yet")
                .startsWith(KnownPassagesFunction.INDEXED_ID_PREFIX);
        assertThat(known.matchGain()).isGreaterThan(0.5);
    }

    @Test
    void shouldTakeAnIndexedDocumentAndTheStoresPassageForOnePassage() throws Exception {
        // an E5-style pipeline embeds "passage: ..." and the store returns the chunk without it
        harness.index(null, new IndexedPassages(earlier().pipeline(), List.of("passage: " + CASH_2023.text(),
                WEATHER.text()), Instant.EPOCH));

        Run sound = send(harness, RunBuilder.healthy().runId("run-sound").retrieved(CASH_2023).reranked(CASH_2023)
                .build());
        Run missed = send(harness, RunBuilder.healthy().runId("run-missed").retrieved(WEATHER).reranked(WEATHER).build());

        assertThat(sound.knownPassages().held()).isEqualTo(2);
        assertThat(sound.knownPassages().unreturned()).extracting(Passage::text).doesNotContain(CASH_2023.text());
        assertThat(missed.knownPassages().held()).as("still two passages, not three").isEqualTo(2);
        assertThat(missed.knownPassages().unreturned().get(0).id()).as("named by the run that was handed it")
                .isEqualTo(CASH_2023.id());
    }

    @Test
    void shouldHandTheDriftCheckEachIndexBuildingCallsModelInLineWithTheRuns() throws Exception {
        String pipeline = earlier().pipeline();
        IndexEmbedding small = new IndexEmbedding(pipeline, null, "text-embedding-3-small", 1536, Instant.EPOCH);
        send(harness, earlier());
        harness.index(small, new IndexedPassages(pipeline, List.of(WEATHER.text()), Instant.EPOCH));
        harness.index(null, new IndexedPassages(pipeline, List.of(LISBON_TRAMS.text()), Instant.EPOCH));
        Run next = send(harness, RunBuilder.healthy().runId("run-next").build());

        List<Either<Run, IndexEmbedding>> out = harness.extractOutputValues();
        assertThat(out).as("run, the model of the call that named one, run: documents alone hand nothing on")
                .hasSize(3);
        assertThat(out.get(1).isRight()).isTrue();
        assertThat(out.get(1).right()).isEqualTo(small);
        assertThat(next.knownPassages().held()).as("both calls' documents learned").isEqualTo(5);
    }
}

package io.raglog.drift;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.EmbeddingMismatch;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Json;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;

class EmbeddingDriftFunctionTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String SMALL = "text-embedding-3-small";
    private static final String ADA = "text-embedding-ada-002";

    /** As the job feeds it: runs (left) and index-building calls' models (right), in one input keyed by pipeline. */
    private static final class Harness
            extends KeyedOneInputStreamOperatorTestHarness<String, Either<Run, IndexEmbedding>, Run> {
        Harness() throws Exception {
            super(new KeyedProcessOperator<>(new EmbeddingDriftFunction()),
                    EmbeddingDriftFunction::pipelineOf, Types.STRING);
        }
    }

    private static Harness harness(OperatorSubtaskState restoreFrom) throws Exception {
        var h = new Harness();
        h.setup();
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    static Run run(String pipeline, int i, String model, int dims, double topScore) {
        Instant at = T0.plusSeconds(i);
        List<Passage> passages = List.of(new Passage("p1", "passage one", topScore, 1),
                new Passage("p2", "passage two", topScore * 0.9, 2));
        return new Run(SchemaIds.RUN_V1, RunIds.of(pipeline, "trace-" + i, null), pipeline, "trace-" + i, "q " + i + "?",
                at, at, false, null, List.of(), List.of(),
                new RunStages(RewriteStage.absent(), new EmbedStage(true, 50, List.of("e" + i), model,
                        List.of("q " + i), dims), new RetrieveStage(true, 9, List.of("r" + i), "qdrant", null, 2,
                                passages, false), RerankStage.absent(), GenerateStage.absent()));
    }

    private static IndexEmbedding index(String pipeline, String model, int dims) {
        return new IndexEmbedding(pipeline, null, model, dims, T0);
    }

    /** A run as the job delivers it: assembly closed it, so the watermark passes its end right after. */
    private static void judge(Harness h, Run run)
            throws Exception {
        h.processElement(Either.Left(run), run.endedAt().toEpochMilli());
        h.processWatermark(new Watermark(run.endedAt().toEpochMilli()));
    }

    private static void build(Harness h,
            IndexEmbedding call) throws Exception {
        h.processElement(Either.Right(call), call.at().toEpochMilli());
        h.processWatermark(new Watermark(call.at().toEpochMilli()));
    }

    private static List<EmbeddingDrift> drift(Harness h) {
        ConcurrentLinkedQueue<StreamRecord<EmbeddingDrift>> out = h.getSideOutput(EmbeddingDriftFunction.DRIFT);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
    }

    private static long mismatches(Harness h) {
        return h.extractOutputValues().stream().filter(r -> r.embeddingMismatch() != null).count();
    }

    @Test
    void shouldFlagARunWhoseQueryModelIsNotItsIndexs() throws Exception {
        var h = harness(null);
        build(h, index("support", SMALL, 1536));
        judge(h, run("support", 1, ADA, 1536, 0.2));
        judge(h, run("support", 2, ADA, 1536, 0.2));
        List<Run> out = h.extractOutputValues();
        assertThat(out).hasSize(2);
        EmbeddingMismatch m = out.get(0).embeddingMismatch();
        assertThat(m).isNotNull();
        assertThat(m.basis()).isEqualTo(EmbeddingMismatch.SEEN);
        assertThat(m.indexModel()).isEqualTo(SMALL);
        assertThat(m.queryModel()).isEqualTo(ADA);
        assertThat(m.repairHint()).contains("Re-embed the index").contains("with " + ADA)
                .contains("or query with " + SMALL);
        // one drift record per index/query model pair, not one per run
        assertThat(drift(h)).extracting(EmbeddingDrift::kind).containsExactly(EmbeddingDrift.INDEX_MISMATCH);
        h.close();
    }

    @Test
    void shouldRaiseNoFlagOnTwoThousandSoundRunsOfSeveralPipelines() throws Exception {
        var h = harness(null);
        SplittableRandom rng = new SplittableRandom(7);
        String[] pipelines = {"support", "docs", "billing", "hr"};
        String[] models = {SMALL, "nomic-embed-text:latest", "embed-english-v3.0", "BAAI/bge-small-en-v1.5"};
        for (int p = 0; p < pipelines.length; p++) {
            build(h, index(pipelines[p], models[p].replace(":latest", ""), 384));
        }
        for (int i = 0; i < 2000; i++) {
            int p = i % pipelines.length;
            // scores with noise and the odd bad retrieval, as faulty-but-sound-model runs have
            double score = rng.nextDouble() < 0.1 ? 0.2 + rng.nextDouble() * 0.2 : 0.6 + rng.nextGaussian() * 0.08;
            judge(h, run(pipelines[p], i, models[p], 384, score));
        }
        assertThat(mismatches(h)).isZero();
        assertThat(drift(h)).isEmpty();
        h.close();
    }

    @Test
    void shouldRaiseADriftRecordSoonAfterAPipelineSwitchesItsQueryModel() throws Exception {
        var h = harness(null);
        SplittableRandom rng = new SplittableRandom(11);
        int switchAt = 300;
        int firstFlag = -1;
        for (int i = 0; i < 500; i++) {
            boolean after = i >= switchAt;
            // no index-building call seen: the collapse of the scores is what says the index holds the old model
            double score = after ? 0.15 + rng.nextGaussian() * 0.05 : 0.62 + rng.nextGaussian() * 0.07;
            judge(h, run("support", i, after ? ADA : SMALL, 1536, score));
            if (firstFlag < 0 && !drift(h).isEmpty()) {
                firstFlag = i;
            }
        }
        List<EmbeddingDrift> records = drift(h);
        assertThat(firstFlag).isBetween(switchAt, switchAt + 100);
        assertThat(records).extracting(EmbeddingDrift::kind)
                .contains(EmbeddingDrift.MODEL_CHANGED, EmbeddingDrift.INDEX_MISMATCH);
        EmbeddingDrift changed = records.stream().filter(d -> d.kind().equals(EmbeddingDrift.MODEL_CHANGED))
                .findFirst().orElseThrow();
        assertThat(changed.before().model()).isEqualTo(SMALL);
        assertThat(changed.after().model()).isEqualTo(ADA);
        assertThat(changed.before().scoreMean()).isGreaterThan(0.5);
        // later runs with the new model are flagged, inferred from the scores
        Run last = h.extractOutputValues().get(499);
        assertThat(last.embeddingMismatch()).isNotNull();
        assertThat(last.embeddingMismatch().basis()).isEqualTo(EmbeddingMismatch.INFERRED);
        assertThat(last.embeddingMismatch().indexModel()).isEqualTo(SMALL);
        h.close();
    }

    @Test
    void shouldNotInferAMismatchWhenScoresHoldUpAfterAChange() throws Exception {
        var h = harness(null);
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = 0; i < 300; i++) {
            judge(h, run("support", i, i < 150 ? SMALL : "text-embedding-3-large", 1536,
                    0.6 + rng.nextGaussian() * 0.07));
        }
        assertThat(drift(h)).extracting(EmbeddingDrift::kind).containsExactly(EmbeddingDrift.MODEL_CHANGED);
        assertThat(mismatches(h)).isZero();
        h.close();
    }

    @Test
    void shouldRaiseAScoreShiftWhenTheSameModelsScoresDrop() throws Exception {
        var h = harness(null);
        SplittableRandom rng = new SplittableRandom(5);
        for (int i = 0; i < 300; i++) {
            double mean = i < 150 ? 0.6 : 0.3;
            judge(h, run("support", i, SMALL, 1536, mean + rng.nextGaussian() * 0.05));
        }
        assertThat(drift(h)).extracting(EmbeddingDrift::kind).contains(EmbeddingDrift.SCORES_SHIFTED);
        assertThat(mismatches(h)).isZero();
        h.close();
    }

    @Test
    void shouldKeepWhatItLearnedAcrossASnapshotAndRestore() throws Exception {
        var h = harness(null);
        build(h, index("support", SMALL, 1536));
        judge(h, run("support", 1, SMALL, 1536, 0.6));
        OperatorSubtaskState snapshot = h.snapshot(1L, 1L);
        h.close();

        var restored = harness(snapshot);
        judge(restored, run("support", 2, ADA, 1536, 0.2));
        judge(restored, run("other", 3, ADA, 1536, 0.2));
        List<Run> out = restored.extractOutputValues();
        assertThat(out.get(0).embeddingMismatch()).isNotNull();
        assertThat(out.get(0).embeddingMismatch().indexModel()).isEqualTo(SMALL);
        assertThat(out.get(1).embeddingMismatch()).isNull(); // another pipeline's index is not this one's
        restored.close();
    }

    @Test
    void shouldKeepAtMostSixteenIndexesPerPipeline() {
        DriftState state = new DriftState();
        for (int i = 0; i < 40; i++) {
            EmbeddingDriftTracker.index(state, new IndexEmbedding("support", "collection-" + i, SMALL, 1536,
                    T0.plusSeconds(i)));
        }
        assertThat(state.indexes).hasSize(EmbeddingDriftTracker.MAX_INDEXES).containsKey("collection-39")
                .doesNotContainKey("collection-0");
    }

    /**
     * Until the drift check ran in the known passages' task it had two inputs (runs, index-building calls): a
     * savepoint of that operator, same uid and state, must restore into the one-input operator of today.
     */
    @Test
    void shouldRestoreWhatTheTwoInputDriftCheckOfEarlierReleasesKept() throws Exception {
        OperatorSubtaskState earlier;
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<>(new KeyedCoProcessOperator<>(new TwoInputDrift()),
                Run::pipeline, IndexEmbedding::pipeline, Types.STRING)) {
            h.setup();
            h.open();
            h.processElement2(index("support", SMALL, 1536), T0.toEpochMilli());
            earlier = h.snapshot(1L, 1L);
        }
        var restored = harness(earlier);
        judge(restored, run("support", 1, ADA, 1536, 0.2));
        assertThat(restored.extractOutputValues().get(0).embeddingMismatch())
                .as("the index's model, from the savepoint").isNotNull().extracting(EmbeddingMismatch::indexModel).isEqualTo(SMALL);
        restored.close();
    }

    /** The state the two-input release kept, as it wrote it: one JSON value per pipeline under its name. */
    private static final class TwoInputDrift extends KeyedCoProcessFunction<String, Run, IndexEmbedding, Run> {
        private transient ValueState<String> state;

        @Override
        public void open(OpenContext openContext) {
            state = getRuntimeContext().getState(new ValueStateDescriptor<>("embedding-drift", Types.STRING));
        }

        @Override
        public void processElement1(Run run, Context ctx, Collector<Run> out) {
            out.collect(run);
        }

        @Override
        public void processElement2(IndexEmbedding call, Context ctx, Collector<Run> out) throws Exception {
            DriftState s = state.value() == null ? new DriftState()
                    : Json.MAPPER.readValue(state.value(), DriftState.class);
            EmbeddingDriftTracker.index(s, call);
            state.update(Json.MAPPER.writeValueAsString(s));
        }
    }
}

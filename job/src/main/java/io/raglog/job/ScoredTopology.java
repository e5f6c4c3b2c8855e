package io.raglog.job;

import io.raglog.checks.RunChecked;
import io.raglog.checkstage.ChecksStage;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.RawMessage;
import io.raglog.knowledge.KnownPassagesFunction;
import io.raglog.monitor.FaultRateCounts;
import io.raglog.monitor.FaultRateWindow;
import io.raglog.monitor.SampleRunsFunction;
import io.raglog.monitor.StageOutcome;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Verdict;
import io.raglog.score.ScoringInput;
import io.raglog.score.flink.ScoreRunsFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.Collector;

/**
 * The whole job on top of run assembly: sample, check, score, count.
 *
 * <pre>
 * runs ─ keyBy(pipeline) ─ known passages ─ sample ─┬─ checks (rules + vectors, [tiered: gate,] then LLM async) ─ score ─▶ verdicts (flagged: debugging queue)
 *                                                   └─ not sampled ──────────────────────────────────┐
 *                                                 verdicts ─ stage outcomes ─────────────────────────┴─ keyBy(pipeline × stage) ─ window ─▶ fault rates
 * </pre>
 */
public final class ScoredTopology {

    /** Everything the job produces. */
    /** @param faults the flagged verdicts only: the debugging queue */
    public record Streams(DataStream<Run> runs, DataStream<DeadLetter> deadLetters, DataStream<RunFeatures> features,
            DataStream<Verdict> verdicts, DataStream<Verdict> faults, DataStream<FaultRate> faultRates) {}

    private ScoredTopology() {}

    public static Streams build(DataStream<RawMessage> calls, DataStream<RawMessage> otlp, JobSettings settings) {
        RaglogTopology.Streams assembled = RaglogTopology.build(calls, otlp, settings.topology());

        // a second opinion on each run's retrieval, from the passages the pipeline's other runs were handed
        DataStream<Run> withKnownPassages = assembled.runs()
                .keyBy(Run::pipeline)
                .process(new KnownPassagesFunction(), JacksonTypeInfo.of(Run.class))
                .uid("known-passages").name("known passages per pipeline");
        SingleOutputStreamOperator<Run> sampled = withKnownPassages
                .process(new SampleRunsFunction(settings.sampling()), JacksonTypeInfo.of(Run.class))
                .uid("sample-runs").name("sample runs");

        // in tiered mode the scoring bundle's tier gate decides which runs skip the LLM checks
        DataStream<RunChecked> checked = ChecksStage.checked(sampled, settings.checks(), settings.bundle());
        DataStream<RunFeatures> features = checked
                .map(RunChecked::features, JacksonTypeInfo.of(RunFeatures.class))
                .uid("features").name("feature vectors");
        DataStream<Verdict> verdicts = checked
                .map(ScoredTopology::scoringInput, JacksonTypeInfo.of(ScoringInput.class))
                .uid("scoring-input").name("scoring input")
                .map(new ScoreRunsFunction(settings.bundle()), JacksonTypeInfo.of(Verdict.class))
                .uid("score-runs").name("score stages");

        DataStream<StageOutcome> checkedOutcomes = verdicts
                .flatMap((Verdict v, Collector<StageOutcome> out) -> StageOutcome.of(v).forEach(out::collect),
                        TypeInformation.of(StageOutcome.class))
                .uid("checked-outcomes").name("checked stage outcomes");
        DataStream<StageOutcome> uncheckedOutcomes = sampled.getSideOutput(SampleRunsFunction.NOT_SAMPLED)
                .flatMap((Run r, Collector<StageOutcome> out) -> StageOutcome.notChecked(r).forEach(out::collect),
                        TypeInformation.of(StageOutcome.class))
                .uid("unchecked-outcomes").name("unchecked stage outcomes");
        DataStream<FaultRate> rates = checkedOutcomes.union(uncheckedOutcomes)
                .keyBy(StageOutcome::key)
                .window(TumblingEventTimeWindows.of(settings.faultRateWindow()))
                .aggregate(new FaultRateCounts(), new FaultRateWindow(), TypeInformation.of(long[].class),
                        TypeInformation.of(long[].class),
                        JacksonTypeInfo.of(FaultRate.class))
                .uid("fault-rates").name("fault rates per pipeline x stage");

        // a flagged stage or a knowledge gap: the content's owner reads the queue too (queue_reasons says whose it is)
        DataStream<Verdict> faults = verdicts.filter(Verdict::queued).name("flagged runs").uid("flagged-runs");
        return new Streams(assembled.runs(), assembled.deadLetters(), features, verdicts, faults, rates);
    }

    private static ScoringInput scoringInput(RunChecked checked) {
        return ScoringInput.of(checked.run(), checked.features());
    }
}

package io.raglog.job;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.monitor.FaultRateCounts;
import io.raglog.monitor.FaultRateWindow;
import io.raglog.monitor.StageOutcome;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.Collector;

/**
 * Fault rates per pipeline × stage in event-time tumbling windows. Runs not sampled count too, as not checked, so a
 * rate says how much of the traffic it rests on. Beside the stages, two series: {@code embedding_mismatch} counts
 * every run the drift operator saw, before sampling; {@code user_feedback_negative}, of the feedback given in the
 * window (its Kafka record time), how much was negative, whether or not its run was checked.
 */
final class FaultRates {

    /**
     * How long after its end a window still takes verdicts, and is written again, complete, when one comes. When the
     * calls go quiet, the sources turn idle (assembly.source_idleness) and idleness passes the LLM checks at once, ahead
     * of the runs still in them; the other inputs of the windows (runs not sampled, the embedding check, feedback)
     * have already carried the time past the window, so it closes before those verdicts arrive. Ten minutes covers an
     * LLM check's timeouts and retries; a window's state is kept that much longer.
     */
    static final Duration LATE_VERDICTS = Duration.ofMinutes(10);

    private FaultRates() {}

    static DataStream<FaultRate> perPipelineAndStage(DataStream<Verdict> verdicts, DataStream<Run> notSampled,
            DataStream<Run> checkedForDrift, DataStream<Feedback> feedback, Duration window) {
        DataStream<StageOutcome> checked = verdicts
                .flatMap((Verdict v, Collector<StageOutcome> out) -> StageOutcome.of(v).forEach(out::collect),
                        TypeInformation.of(StageOutcome.class))
                .uid("checked-outcomes").name("checked stage outcomes");
        DataStream<StageOutcome> unchecked = notSampled
                .flatMap((Run r, Collector<StageOutcome> out) -> StageOutcome.notChecked(r).forEach(out::collect),
                        TypeInformation.of(StageOutcome.class))
                .uid("unchecked-outcomes").name("unchecked stage outcomes");
        DataStream<StageOutcome> embeddings = checkedForDrift
                .flatMap((Run r, Collector<StageOutcome> out) -> StageOutcome.embeddingChecked(r).forEach(out::collect),
                        TypeInformation.of(StageOutcome.class))
                .uid("embedding-outcomes").name("embedding mismatch outcomes");
        DataStream<StageOutcome> outcomes = checked.union(unchecked, embeddings);
        if (feedback != null) {
            outcomes = outcomes.union(feedback
                    .map(f -> new StageOutcome(f.pipeline(), FaultRate.USER_FEEDBACK_NEGATIVE, true, f.negative()),
                            TypeInformation.of(StageOutcome.class))
                    .uid("feedback-outcomes").name("user feedback outcomes"));
        }
        return outcomes
                .keyBy(StageOutcome::key)
                .window(TumblingEventTimeWindows.of(window))
                .allowedLateness(LATE_VERDICTS)
                .aggregate(new FaultRateCounts(), new FaultRateWindow(), TypeInformation.of(long[].class),
                        TypeInformation.of(long[].class), JacksonTypeInfo.of(FaultRate.class))
                .uid("fault-rates").name("fault rates per pipeline x stage");
    }
}

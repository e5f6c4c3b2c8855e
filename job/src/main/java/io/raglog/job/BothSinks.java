package io.raglog.job;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Verdict;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Two sets of destinations as one, output by output: each output goes to the first, then to the second. */
record BothSinks(RaglogPipeline.Sinks first, RaglogPipeline.Sinks second) implements RaglogPipeline.Sinks {

    @Override
    public boolean wantsVerdicts() {
        return first.wantsVerdicts() || second.wantsVerdicts();
    }

    @Override
    public void runs(DataStream<Run> runs) {
        first.runs(runs);
        second.runs(runs);
    }

    @Override
    public void deadLetters(DataStream<DeadLetter> deadLetters) {
        first.deadLetters(deadLetters);
        second.deadLetters(deadLetters);
    }

    @Override
    public void features(DataStream<RunFeatures> features) {
        first.features(features);
        second.features(features);
    }

    @Override
    public void verdicts(DataStream<Verdict> verdicts) {
        first.verdicts(verdicts);
        second.verdicts(verdicts);
    }

    @Override
    public void faults(DataStream<Verdict> faults) {
        first.faults(faults);
        second.faults(faults);
    }

    @Override
    public void faultRates(DataStream<FaultRate> faultRates) {
        first.faultRates(faultRates);
        second.faultRates(faultRates);
    }

    @Override
    public void drift(DataStream<EmbeddingDrift> drift) {
        first.drift(drift);
        second.drift(drift);
    }

    @Override
    public void runFeedback(DataStream<RunFeedback> runFeedback) {
        first.runFeedback(runFeedback);
        second.runFeedback(runFeedback);
    }

    @Override
    public void faults(DataStream<Verdict> queue, DataStream<Verdict> documents) {
        first.faults(queue, documents);
        second.faults(queue, documents);
    }

    @Override
    public void evaluations(DataStream<Verdict> verdicts) {
        first.evaluations(verdicts);
        second.evaluations(verdicts);
    }
}

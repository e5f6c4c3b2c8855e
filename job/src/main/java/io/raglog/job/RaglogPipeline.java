package io.raglog.job;

import io.raglog.assemble.AssembleRunsFunction;
import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.mapping.UnknownEndpoints;
import io.raglog.checks.RunChecked;
import io.raglog.checkstage.ChecksStage;
import io.raglog.drift.EmbeddingDriftFunction;
import io.raglog.drift.IndexEmbedding;
import io.raglog.feedback.DecodeFeedbackFunction;
import io.raglog.feedback.FeedbackJoinFunction;
import io.raglog.feedback.FeedbackSettings;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.ClassifyCallsFunction;
import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.DecodeCallsFunction;
import io.raglog.ingest.DecodeOtlpFunction;
import io.raglog.ingest.RawMessage;
import io.raglog.knowledge.IndexBuildingCall;
import io.raglog.reask.AskedQuestion;
import io.raglog.reask.ReAsk;
import io.raglog.reask.ReAskFunction;
import io.raglog.reask.ReAskSettings;
import io.raglog.knowledge.KnownPassagesFunction;
import io.raglog.llm.ProviderKind;
import io.raglog.monitor.SampleRunsFunction;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.FaultRate;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.Verdict;
import io.raglog.score.ScoringInput;
import io.raglog.score.flink.BundleLocation;
import io.raglog.score.flink.DecodeThresholdsFunction;
import io.raglog.score.flink.MainInputTimeOperator;
import io.raglog.score.flink.ScoreRunsFunction;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;

/**
 * raglog from top to bottom: every call from the moment it is read to the outputs it ends in.
 *
 * <pre>
 * calls ─ decode ─ classify ─┐                  ┌─────────────────────────────┐
 * otlp  ─ decode ─ classify ─┴─ unknown endpoints (LLM mapping) ─┴─ keyBy(pipeline, run hint) ─ assemble ─▶ runs
 *          └──────── bad input, unreadable bodies, late calls ──────────────────────────────────────▶ dead letters
 * runs ─ keyBy(pipeline) ─ known passages ─ embedding drift (+ index-building calls) ─▶ drift ─ sample ─┬─ checks (rules + vectors, [tiered: gate,] then LLM async)
 *                                                   │    ─ score ─▶ verdicts (flagged: faults)
 *                           thresholds ─ decode ─ broadcast ─┘ (per-pipeline overrides; bad records: dead letters)
 *                                                   └─ not sampled ──────────────────────────┐
 *                              verdicts ─ stage outcomes ────────────────────────────────────┴─ keyBy(pipeline × stage)
 * feedback ─ decode ──────────────────┬─ outcomes (negative or not) ──────────────────────────┘ ─ window ─▶ fault rates
 * runs ─ keyBy(pipeline, session) ─ re-asks (negative feedback on the run re-asked)
 *                                     └─ keyBy(pipeline) ─ join verdicts (event time, waits both ways) ─▶ run feedback
 *                                                     ├─ disliked but passed ─▶ faults (reason user_feedback)
 *                                                     └─ queued runs as they now read (with feedback) ─▶ the queue's documents
 * </pre>
 *
 * <p>Where the calls come from and where the results go is the caller's: Kafka ({@link KafkaConnection}, for
 * {@code run} and the demo), files in batch mode ({@code replay}), a test's own streams. Every operator keeps its uid
 * and name from release to release: savepoints find their state by the uids, and dashboards group by the names
 * ({@code PipelineOperatorsTest} holds them).
 */
public final class RaglogPipeline {

    private RaglogPipeline() {}

    /** Wires the whole job between {@code from} and {@code to}; the caller executes it. */
    public static void wire(Sources from, Sinks to, JobSettings settings) {
        // the job's latency is the topology's to set, wherever it runs: every edge below flushes within this
        (from.calls() != null ? from.calls() : from.otlp()).getExecutionEnvironment()
                .setBufferTimeout(settings.topology().bufferTimeout().toMillis());
        // each input decoded and classified in one chain: a call crosses no network edge before it has its stage
        IngestedCalls proxyCalls = classify(decodeProxyCalls(from.calls()), "classify-calls");
        IngestedCalls otlpCalls = classify(decodeOtlpSpans(from.otlp()), "classify-spans");
        IngestedCalls calls = proxyCalls.and(otlpCalls);
        DataStream<ClassifiedCall> staged = withUnknownEndpointsMapped(calls, settings.topology());

        SingleOutputStreamOperator<Run> runs = assemble(staged, settings.topology().assembly());
        DataStream<DeadLetter> deadLetters = calls.deadLetters().union(lateCalls(runs));
        if (!to.wantsVerdicts()) {
            to.runs(runs);
            to.deadLetters(deadLetters);
            return;
        }
        Overrides overrides = overrides(from, runs);
        if (overrides.deadLetters() != null) {
            deadLetters = deadLetters.union(overrides.deadLetters());
        }

        SingleOutputStreamOperator<Run> checkedForDrift = withEmbeddingDrift(
                withKnownPassages(runs, calls.indexBuilding()));
        SingleOutputStreamOperator<Run> sampled = sample(checkedForDrift, settings.sampling());
        // in tiered mode the bundle's tier gate decides which runs skip the LLM checks
        DataStream<RunChecked> checked = ChecksStage.checked(sampled, settings.checks(), settings.bundle());
        DataStream<RunFeatures> features = features(checked);
        DataStream<Verdict> verdicts = score(checked, overrides.thresholds(), settings.bundle());
        FeedbackSettings feedbackSettings = settings.feedback();
        SingleOutputStreamOperator<Feedback> written = feedbackSettings == null ? null
                : decodeFeedback(from.feedback());
        // a re-ask is feedback no channel has to carry: found in the runs themselves, joined like the rest
        DataStream<Feedback> reAsked = feedbackSettings == null || feedbackSettings.reAsks() == null ? null
                : reAsks(checkedForDrift, feedbackSettings.reAsks());
        DataStream<Feedback> feedback = written == null ? reAsked : reAsked == null ? written : written.union(reAsked);
        DataStream<FaultRate> faultRates = FaultRates.perPipelineAndStage(verdicts,
                sampled.getSideOutput(SampleRunsFunction.NOT_SAMPLED), checkedForDrift, feedback,
                settings.faultRateWindow());
        DataStream<Verdict> faults = flagged(verdicts);
        DataStream<Verdict> faultDocuments = faults;
        if (feedback != null) {
            SingleOutputStreamOperator<RunFeedback> joined = joinFeedback(verdicts, feedback, settings.feedback());
            // users disliked it and raglog passed it: the queue gets it, with the reason user_feedback
            faults = faults.union(joined.getSideOutput(FeedbackJoinFunction.DISLIKED_BUT_PASSED));
            faultDocuments = joined.getSideOutput(FeedbackJoinFunction.QUEUE_DOCUMENTS);
            if (written != null) {
                deadLetters = deadLetters.union(written.getSideOutput(DecodeFeedbackFunction.DEAD_LETTERS));
            }
            to.runFeedback(joined);
        }

        to.runs(runs);
        to.deadLetters(deadLetters);
        to.features(features);
        to.verdicts(verdicts);
        to.evaluations(verdicts);
        to.faults(faults, faultDocuments);
        to.faultRates(faultRates);
        to.drift(checkedForDrift.getSideOutput(EmbeddingDriftFunction.DRIFT));
    }

    /** raglog.feedback/v1 JSON; bad input becomes a dead letter. Null when the deployment reads no feedback. */
    private static SingleOutputStreamOperator<Feedback> decodeFeedback(DataStream<RawMessage> messages) {
        return messages == null ? null : messages
                .process(new DecodeFeedbackFunction(), JacksonTypeInfo.of(Feedback.class))
                .uid("decode-feedback").name("decode raglog.feedback/v1");
    }

    /**
     * Each complete run's question against its session's recent ones (the pipeline's unsessioned runs within a
     * shorter window): a paraphrase of a question just answered marks that earlier run as disliked.
     */
    private static DataStream<Feedback> reAsks(DataStream<Run> runs, ReAskSettings settings) {
        return runs
                .flatMap((Run run, Collector<AskedQuestion> out) -> {
                    AskedQuestion asked = AskedQuestion.of(run); // null: incomplete, or no question to compare
                    if (asked != null) {
                        out.collect(asked);
                    }
                }, ReAskFunction.INPUT)
                .uid("asked-questions").name("asked questions")
                .keyBy(ReAskFunction.KEY, Types.STRING)
                .process(new ReAskFunction(settings), ReAskFunction.OUTPUT)
                .uid("re-asks").name("re-asks per session")
                .map(ReAsk::asFeedback, JacksonTypeInfo.of(Feedback.class))
                .uid("re-ask-feedback").name("re-asks as feedback");
    }

    /**
     * Feedback meets its run's verdict in event time, keyed by pipeline: the one key both sides always carry, and the
     * one a question-only record can be searched under. Each side waits for the other as the settings say.
     */
    private static SingleOutputStreamOperator<RunFeedback> joinFeedback(DataStream<Verdict> verdicts,
            DataStream<Feedback> feedback, FeedbackSettings settings) {
        return verdicts.keyBy(Verdict::pipeline)
                .connect(feedback.keyBy(Feedback::pipeline))
                .process(new FeedbackJoinFunction(settings), JacksonTypeInfo.of(RunFeedback.class))
                .uid("join-feedback").name("user feedback x verdicts");
    }

    /** raglog.call/v1 JSON, as the proxy writes it; bad input becomes a dead letter. Null for no input. */
    private static SingleOutputStreamOperator<CallEvent> decodeProxyCalls(DataStream<RawMessage> messages) {
        return messages == null ? null : messages
                .process(new DecodeCallsFunction(), JacksonTypeInfo.of(CallEvent.class))
                .uid("decode-calls").name("decode raglog.call/v1");
    }

    /** OTLP trace messages (protobuf or JSON) into the same CallEvents the proxy writes. Null for no input. */
    private static SingleOutputStreamOperator<CallEvent> decodeOtlpSpans(DataStream<RawMessage> messages) {
        return messages == null ? null : messages
                .process(new DecodeOtlpFunction(DecodeOtlpFunction.AUTO), JacksonTypeInfo.of(CallEvent.class))
                .uid("decode-otlp").name("decode OTLP traces");
    }

    /** Each call's stage, by the adapters raglog ships; calls to an endpoint none knows go aside unclassified. */
    private static IngestedCalls classify(SingleOutputStreamOperator<CallEvent> decoded, String uid) {
        if (decoded == null) {
            return IngestedCalls.NONE;
        }
        SingleOutputStreamOperator<ClassifiedCall> classified = decoded
                .process(new ClassifyCallsFunction(BuiltInAdapters.classifier()),
                        JacksonTypeInfo.of(ClassifiedCall.class))
                .uid(uid).name("classify stage");
        return new IngestedCalls(classified, classified.getSideOutput(ClassifyCallsFunction.UNCLASSIFIED),
                decoded.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)
                        .union(classified.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)),
                classified.getSideOutput(ClassifyCallsFunction.INDEX_BUILDING));
    }

    /** With a real LLM configured, it is asked once per pipeline + endpoint where an unknown API's fields are. */
    private static DataStream<ClassifiedCall> withUnknownEndpointsMapped(IngestedCalls calls, TopologySettings t) {
        if (t.endpointMapping().provider() == ProviderKind.OFFLINE) {
            return calls.classified(); // the offline judge maps nothing: unknown endpoints stay unclassified, counted
        }
        return calls.classified().union(UnknownEndpoints.apply(calls.unclassified(), t.endpointMapping(), t.mapping()));
    }

    /** A run closes on event time, its generator call's end plus a grace; calls left over leave as incomplete runs. */
    private static SingleOutputStreamOperator<Run> assemble(DataStream<ClassifiedCall> calls,
            AssemblySettings settings) {
        return calls
                .keyBy(ClassifiedCall::runKey)
                .process(new AssembleRunsFunction(settings), JacksonTypeInfo.of(Run.class))
                .uid("assemble-runs").name("assemble runs");
    }

    private static DataStream<DeadLetter> lateCalls(SingleOutputStreamOperator<Run> runs) {
        return runs.getSideOutput(AssembleRunsFunction.LATE)
                .map(RaglogPipeline::lateCall, JacksonTypeInfo.of(DeadLetter.class))
                .uid("late-calls").name("late calls");
    }

    /** A call that arrived after its run closed, dead-lettered whole: with the bodies it was captured with. */
    static DeadLetter lateCall(ClassifiedCall c) {
        return DeadLetters.ofCall("assembly", c.wholeEvent(), "late: the call arrived after its run ("
                + c.event().pipeline() + ", hint " + c.event().runHint() + ") was closed");
    }

    /**
     * A second opinion on each run's retrieval, from the passages the pipeline's other runs were handed and the
     * documents its index-building calls embedded: keyed by pipeline, since that is the knowledge base a run's
     * retrieval searched. The runs leave with the index-building calls' models, in order, for the drift check.
     */
    private static DataStream<Either<Run, IndexEmbedding>> withKnownPassages(DataStream<Run> runs,
            DataStream<IndexBuildingCall> indexBuilding) {
        return runs
                .keyBy(Run::pipeline)
                .connect(indexBuilding.keyBy(IndexBuildingCall::pipeline))
                .process(new KnownPassagesFunction(), KnownPassagesFunction.OUTPUT)
                .uid("known-passages").name("known passages per pipeline");
    }

    /**
     * The embedding model and dimension of each index (from index-building calls) against each run's query embedding,
     * keyed by pipeline: a run whose query model is not its index's carries the mismatch (scoring flags its embed
     * stage); model changes, retrieval score shifts and mismatches leave as drift records.
     */
    private static SingleOutputStreamOperator<Run> withEmbeddingDrift(DataStream<Either<Run, IndexEmbedding>> known) {
        // the known passages partitioned both by pipeline and hand them on as one input: the two run in one task,
        // and a run is not written and read again between them
        return DataStreamUtils.reinterpretAsKeyedStream(known, EmbeddingDriftFunction::pipelineOf, Types.STRING)
                .process(new EmbeddingDriftFunction(), JacksonTypeInfo.of(Run.class))
                .uid("embedding-drift").name("embedding drift per pipeline");
    }

    /** Runs not sampled leave by a side output, to be counted as not checked; incomplete runs are never checked. */
    private static SingleOutputStreamOperator<Run> sample(DataStream<Run> runs, SamplingPolicy policy) {
        return runs
                .process(new SampleRunsFunction(policy), JacksonTypeInfo.of(Run.class))
                .uid("sample-runs").name("sample runs");
    }

    private static DataStream<RunFeatures> features(DataStream<RunChecked> checked) {
        return checked
                .map(RunChecked::features, JacksonTypeInfo.of(RunFeatures.class))
                .uid("features").name("feature vectors");
    }

    /**
     * raglog.thresholds/v1 records, bad ones to the dead letters; a deployment without the topic (a replay of files)
     * scores with the bundle's thresholds alone.
     */
    private static Overrides overrides(Sources from, DataStream<Run> runs) {
        if (from.thresholds() == null) {
            return new Overrides(ScoreRunsFunction.noOverrides(runs).uid("no-threshold-overrides")
                    .name("no threshold overrides"), null);
        }
        SingleOutputStreamOperator<PipelineThresholds> decoded = from.thresholds()
                .process(new DecodeThresholdsFunction(), JacksonTypeInfo.of(PipelineThresholds.class))
                .uid("decode-thresholds").name("decode raglog.thresholds/v1").setParallelism(1);
        return new Overrides(decoded, decoded.getSideOutput(DecodeCallsFunction.DEAD_LETTERS));
    }

    /** @param deadLetters null when there is no thresholds topic */
    private record Overrides(DataStream<PipelineThresholds> thresholds, DataStream<DeadLetter> deadLetters) {}

    /**
     * Per-stage ensembles, thresholds and the reassignment rule, with evidence and a repair hint per flag; each
     * pipeline's threshold overrides broadcast to every scoring task, kept in broadcast state.
     */
    private static DataStream<Verdict> score(DataStream<RunChecked> checked, DataStream<PipelineThresholds> overrides,
            BundleLocation bundle) {
        return checked
                .map(RaglogPipeline::scoringInput, JacksonTypeInfo.of(ScoringInput.class))
                .uid("scoring-input").name("scoring input")
                // the overrides change thresholds, never time: the step's event time is the runs' alone
                .connect(overrides.broadcast())
                .transform("score stages", JacksonTypeInfo.of(Verdict.class), new MainInputTimeOperator<>(
                        new ScoreRunsFunction(bundle), List.of(ScoreRunsFunction.OVERRIDES)))
                .uid("score-runs").name("score stages");
    }

    private static ScoringInput scoringInput(RunChecked checked) {
        return ScoringInput.of(checked.run(), checked.features());
    }

    /** A flagged stage or a knowledge gap: the content's owner reads the queue too (queue_reasons says whose it is). */
    private static DataStream<Verdict> flagged(DataStream<Verdict> verdicts) {
        return verdicts.filter(Verdict::queued).name("flagged runs").uid("flagged-runs");
    }

    /**
     * What the pipeline reads. Inputs carry their event time and watermarks from their sources (Kafka: per partition,
     * from record timestamps; files in batch mode: none needed, every timer fires at the end of the input).
     *
     * @param calls captured calls (raglog.call/v1), or null when the deployment reads only traces
     * @param otlp OTLP trace messages, or null when the deployment reads only proxy calls
     * @param feedback user feedback (raglog.feedback/v1), or null when none is read (a replay)
     * @param thresholds per-pipeline threshold overrides (raglog.thresholds/v1), or null for the bundle's alone; they
     *     take no part in event time (the scoring step's time is the runs')
     */
    public record Sources(DataStream<RawMessage> calls, DataStream<RawMessage> otlp, DataStream<RawMessage> feedback,
            DataStream<RawMessage> thresholds) {
        public Sources {
            if (calls == null && otlp == null) {
                throw new IllegalArgumentException("the pipeline needs calls, OTLP traces, or both");
            }
        }

        /** Calls and traces: no feedback, the bundle's thresholds for every run. */
        public Sources(DataStream<RawMessage> calls, DataStream<RawMessage> otlp) {
            this(calls, otlp, null, null);
        }

        public Sources withFeedback(DataStream<RawMessage> messages) {
            return new Sources(calls, otlp, messages, thresholds);
        }

        public Sources withThresholds(DataStream<RawMessage> messages) {
            return new Sources(calls, otlp, feedback, messages);
        }
    }

    /** Where the pipeline writes; an output a destination does not take is not written there. */
    public interface Sinks {

        /**
         * False when only runs and dead letters are wanted (a replay that assembles): then no run is sampled,
         * checked or scored, and no LLM is asked anything.
         */
        default boolean wantsVerdicts() {
            return true;
        }

        default void runs(DataStream<Run> runs) {}

        default void deadLetters(DataStream<DeadLetter> deadLetters) {}

        default void features(DataStream<RunFeatures> features) {}

        default void verdicts(DataStream<Verdict> verdicts) {}

        /**
         * Every verdict, for writing as OpenTelemetry GenAI evaluation events ({@code io.raglog.otel.EvaluationEvents}):
         * one {@code gen_ai.evaluation.result} per present stage, on the run's trace and the stage's span when known.
         */
        default void evaluations(DataStream<Verdict> verdicts) {}

        /** The flagged verdicts only: the debugging queue. */
        default void faults(DataStream<Verdict> faults) {}

        /**
         * The debugging queue twice: as records ({@code queue}: each queued run once, as {@link #faults}) and as
         * documents ({@code documents}: each queued run as it should now read, again whenever its user feedback
         * changes, all of one run's from one writer so the last written is the latest). A destination that keeps one
         * document per run id takes the documents; the rest take the queue.
         */
        default void faults(DataStream<Verdict> queue, DataStream<Verdict> documents) {
            faults(queue);
        }

        default void faultRates(DataStream<FaultRate> faultRates) {}

        /** Embedding model changes, retrieval score shifts and index/query model mismatches (raglog.drift/v1). */
        default void drift(DataStream<EmbeddingDrift> drift) {}

        /** Each feedback record, joined with its run's verdict or not (raglog.run-feedback/v1). */
        default void runFeedback(DataStream<RunFeedback> runFeedback) {}

        /** These destinations, then {@code more}, output by output (Kafka, then Elasticsearch). */
        default Sinks and(Sinks more) {
            return new BothSinks(this, more);
        }
    }
}

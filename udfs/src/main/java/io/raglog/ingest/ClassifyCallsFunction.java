package io.raglog.ingest;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.knowledge.IndexBuildingCall;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.CallEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Classifies each call's stage with the adapters' rules. Calls that are not part of a run (index building, admin)
 * and calls to endpoints no adapter knows are counted, not forwarded; a known endpoint with an unreadable body is
 * malformed input and goes to the dead-letter side output. Index-building embedding calls leave their model and
 * dimension, for the embedding-drift check, and the documents they embedded, for the known passages, by
 * {@link #INDEX_BUILDING}. A call of a run leaves as assembly holds it ({@link ClassifiedCall#forAssembly()}).
 */
public class ClassifyCallsFunction extends ProcessFunction<CallEvent, ClassifiedCall> {

    private static final long serialVersionUID = 1L;

    /** Calls no adapter knows, for the unknown-endpoint mapping (an LLM proposes where their fields are). */
    public static final OutputTag<CallEvent> UNCLASSIFIED =
            new OutputTag<>("unclassified-calls", JacksonTypeInfo.of(CallEvent.class));

    /**
     * The model, dimension and documents of each index-building embedding call (the calls themselves stay uncounted
     * as runs).
     */
    public static final OutputTag<IndexBuildingCall> INDEX_BUILDING =
            new OutputTag<>("index-building", JacksonTypeInfo.of(IndexBuildingCall.class));

    private final CallClassifier classifier;

    private transient Counter classified;
    private transient Counter notARunCall;
    private transient Counter unclassified;
    private transient Counter unreadable;

    public ClassifyCallsFunction(CallClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("classify");
        classified = group.counter("calls_classified");
        notARunCall = group.counter("calls_not_part_of_a_run");
        unclassified = group.counter("calls_unclassified");
        unreadable = group.counter("calls_unreadable");
    }

    @Override
    public void processElement(CallEvent call, Context ctx, Collector<ClassifiedCall> out) {
        Classification result = classifier.classify(call);
        if (result instanceof Classification.Classified c) {
            if (c.call().stage() == null || c.call().detail() instanceof NotARunCall) {
                notARunCall.inc();
                IndexBuildingCall index = IndexBuildingCall.of(IndexEmbeddings.read(c.call()),
                        IndexedPassages.read(c.call()));
                if (index != null) {
                    ctx.output(INDEX_BUILDING, index);
                }
            } else {
                classified.inc();
                out.collect(c.call().forAssembly());
            }
        } else if (result instanceof Classification.Unreadable u) {
            unreadable.inc();
            ctx.output(DecodeCallsFunction.DEAD_LETTERS, DeadLetters.ofCall("classify", call, u.reason()));
        } else {
            unclassified.inc();
            ctx.output(UNCLASSIFIED, call);
        }
    }
}

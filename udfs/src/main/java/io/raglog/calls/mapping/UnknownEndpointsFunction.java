package io.raglog.calls.mapping;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.adapters.Bodies;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.ProviderKind;
import io.raglog.schemas.CallEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls to endpoints no built-in adapter knows, keyed by {@link EndpointKey}. The first call of an endpoint that can
 * serve as a sample asks the LLM for a field mapping; an accepted mapping is kept in keyed state (so checkpoints and
 * savepoints carry it across restarts) and applied to that call and every later one, without asking again.
 *
 * <p>State per endpoint: the accepted mapping; until there is one, a status (rejections, retry time, given up) and
 * the endpoint's calls, buffered (at most {@code maxBufferedCalls}; past that they are counted as unclassified) so that
 * none is lost while a proposal is retried. Once accepted, the buffer and status are cleared and only the mapping
 * stays; an endpoint given up keeps only its status, so its calls are counted without asking again.
 *
 * <p>The proposal is made synchronously on the task thread, bounded by {@code proposalTimeout}. It happens once per
 * endpoint ever (plus at most {@code maxAttempts - 1} retries), so the stall it causes (back-pressure and a delayed
 * checkpoint barrier for up to that timeout) is paid a handful of times in a job's life; an async operator would buy
 * nothing but a second place to keep the buffer consistent.
 *
 * <p>With the offline judge nothing is asked: a mapping restored from a savepoint is still applied, every other call
 * stays unclassified and is counted, and no state is written.
 */
public class UnknownEndpointsFunction extends KeyedProcessFunction<EndpointKey, CallEvent, ClassifiedCall> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(UnknownEndpointsFunction.class);

    /** Compiled mappings per task: a handful of unknown endpoints, so a small bound is plenty. */
    private static final int COMPILED_CACHE = 256;

    private final LlmSettings llm;
    private final MappingSettings settings;

    private transient ValueState<FieldMapping> mapping;
    private transient ValueState<EndpointStatus> status;
    private transient ListState<CallEvent> buffer;
    private transient FieldMappingProposer proposer;
    private transient Map<FieldMapping, CallClassifier> compiled;

    private transient Counter mapped;
    private transient Counter notARunCall;
    private transient Counter unclassified;
    private transient Counter notFitting;
    private transient Counter accepted;
    private transient Counter rejected;
    private transient Counter givenUp;
    private transient Counter llmCalls;

    public UnknownEndpointsFunction(LlmSettings llm, MappingSettings settings) {
        this.llm = llm;
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        mapping = getRuntimeContext().getState(
                new ValueStateDescriptor<>("field-mapping", JacksonTypeInfo.of(FieldMapping.class)));
        status = getRuntimeContext().getState(
                new ValueStateDescriptor<>("endpoint-status", JacksonTypeInfo.of(EndpointStatus.class)));
        buffer = getRuntimeContext().getListState(
                new ListStateDescriptor<>("calls-awaiting-mapping", JacksonTypeInfo.of(CallEvent.class)));
        // The HTTP client is built once per task, here; the offline judge has no model to ask.
        proposer = llm.provider() == ProviderKind.OFFLINE ? null : FieldMappingProposer.create(llm, settings);
        compiled = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<FieldMapping, CallClassifier> eldest) {
                return size() > COMPILED_CACHE;
            }
        };
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("mapping");
        mapped = group.counter("calls_mapped");
        notARunCall = group.counter("calls_not_part_of_a_run");
        unclassified = group.counter("calls_unclassified");
        notFitting = group.counter("calls_not_fitting");
        accepted = group.counter("proposals_accepted");
        rejected = group.counter("proposals_rejected");
        givenUp = group.counter("endpoints_given_up");
        llmCalls = group.counter("llm_calls");
    }

    @Override
    public void processElement(CallEvent call, Context ctx, Collector<ClassifiedCall> out) throws Exception {
        FieldMapping kept = mapping.value();
        if (kept != null) {
            apply(ctx.getCurrentKey(), kept, call, out);
            return;
        }
        if (proposer == null) {
            unclassified.inc();
            return;
        }
        EndpointStatus s = status.value() == null ? EndpointStatus.NEW : status.value();
        if (s.gaveUp()) {
            unclassified.inc();
            return;
        }
        boolean asks = s.retryAt() == 0 && usableSample(call); // no retry pending, and the call shows the replies
        boolean full = s.buffered() >= settings.maxBufferedCalls();
        if (!full) {
            buffer.add(call);
            s = s.withOneMoreBuffered();
        }
        if (asks) {
            propose(ctx.getCurrentKey(), call, s, full ? call : null, ctx.timerService().currentProcessingTime(), ctx,
                    out);
        } else if (full) {
            unclassified.inc(); // held calls are bounded: past the bound a call is counted, not kept
        } else {
            status.update(s);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ClassifiedCall> out) throws Exception {
        EndpointStatus s = status.value();
        if (s == null || s.gaveUp() || s.retryAt() != timestamp || mapping.value() != null) {
            return; // superseded: the endpoint was mapped or given up since the retry was scheduled
        }
        CallEvent sample = null;
        for (CallEvent c : buffer.get()) {
            if (usableSample(c)) {
                sample = c; // the latest usable one: closest to what the endpoint answers now
            }
        }
        if (sample == null) {
            status.update(s.waitingForSample());
            return;
        }
        propose(ctx.getCurrentKey(), sample, s, null, timestamp, ctx, out);
    }

    /**
     * @param unbuffered the sample itself when the buffer was full: applied or counted with the buffered calls
     */
    private void propose(EndpointKey key, CallEvent sample, EndpointStatus s, CallEvent unbuffered, long now,
            Context ctx, Collector<ClassifiedCall> out) throws Exception {
        Proposal proposal = proposer.propose(key, sample, s.lastRejection());
        llmCalls.inc(proposal.llmCalls());
        if (proposal instanceof Proposal.Accepted a) {
            accepted.inc();
            mapping.update(a.mapping());
            for (CallEvent c : buffer.get()) {
                apply(key, a.mapping(), c, out);
            }
            if (unbuffered != null) {
                apply(key, a.mapping(), unbuffered, out);
            }
            buffer.clear();
            status.clear();
            return;
        }
        String reason = ((Proposal.Rejected) proposal).reason();
        rejected.inc();
        if (unbuffered != null) {
            unclassified.inc();
        }
        if (s.rejections() + 1 >= settings.maxAttempts()) {
            givenUp.inc();
            LOG.warn("no field mapping for {} after {} proposal(s), its calls stay unclassified: {}", key,
                    s.rejections() + 1, reason);
            unclassified.inc(s.buffered());
            buffer.clear();
            status.update(s.givenUp(reason));
            return;
        }
        // Why a timer: the retry must happen even if the endpoint is never called again, or its buffer would wait
        // forever. It is cleared implicitly by firing; a stale one (mapping accepted since) returns at once.
        long retryAt = now + settings.backoffAfter(s.rejections() + 1).toMillis();
        ctx.timerService().registerProcessingTimeTimer(retryAt);
        status.update(s.retryingAt(reason, retryAt));
    }

    private void apply(EndpointKey key, FieldMapping m, CallEvent call, Collector<ClassifiedCall> out) {
        CallClassifier classifier = compiled.get(m);
        if (classifier == null) {
            try {
                classifier = new CallClassifier(List.of(new MappedAdapter(key, m)));
            } catch (IllegalArgumentException e) {
                // Only a mapping from a newer raglog (or edited state) gets here: it cannot be read, so it is not used.
                LOG.error("kept field mapping for {} cannot be applied: {}", key, e.getMessage());
                unclassified.inc();
                return;
            }
            compiled.put(m, classifier);
        }
        Classification result = classifier.classify(call);
        if (result instanceof Classification.Classified c) {
            if (c.call().stage() == null || c.call().detail() instanceof NotARunCall) {
                notARunCall.inc();
            } else {
                mapped.inc();
                out.collect(c.call().forAssembly());
            }
        } else if (result instanceof Classification.Unreadable u) {
            // The endpoint changed shape, or this call is unlike the sample: counted, never guessed at.
            notFitting.inc();
            LOG.debug("call {} does not fit the mapping of {}: {}", call.eventId(), key, u.reason());
        } else {
            unclassified.inc();
        }
    }

    /** A call that can show the model what the endpoint answers: a success with a JSON body on both sides. */
    static boolean usableSample(CallEvent call) {
        if (!Bodies.succeeded(call)) {
            return false;
        }
        var request = Bodies.request(call);
        var response = Bodies.response(call);
        return (request.isObject() || request.isArray()) && (response.isObject() || response.isArray());
    }

    @Override
    public void close() throws Exception {
        if (proposer != null) {
            proposer.close();
        }
        super.close();
    }
}

package io.raglog.calls;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Stage;

/**
 * A captured call and what it is: the unit run assembly keys, buffers and links.
 *
 * @param stage the stage this call serves, null for {@link NotARunCall}
 * @param requestDigest {@link RequestDigest} of the request body of a call of a run: computed here when the body is
 *     present and no digest was given (calls held in state by older releases carry their body and no digest), kept
 *     when the body is dropped ({@link #forAssembly()}); none for a call outside a run (an index-building batch can be
 *     large, and no run links it)
 * @param bodies the bodies of a hinted call as assembly holds it ({@link #forAssembly()}), which {@link #event} is
 *     then without; null otherwise, and left out of the record, so a call without them is written as before. Calls
 *     held in state by older releases have none and their bodies in {@link #event}
 */
public record ClassifiedCall(CallEvent event, Stage stage, CallDetail detail, long requestDigest,
        @JsonInclude(JsonInclude.Include.NON_NULL) HeldBodies bodies) {

    public ClassifiedCall {
        if (requestDigest == RequestDigest.NONE && stage != null && event != null && event.request() != null) {
            requestDigest = RequestDigest.of(event.request().body());
        }
    }

    public ClassifiedCall(CallEvent event, Stage stage, CallDetail detail) {
        this(event, stage, detail, RequestDigest.NONE);
    }

    public ClassifiedCall(CallEvent event, Stage stage, CallDetail detail, long requestDigest) {
        this(event, stage, detail, requestDigest, null);
    }

    /** Where assembly keys this call: one key per hinted run, one per pipeline for calls without a hint. */
    public String runKey() {
        return runKey(event);
    }

    public static String runKey(CallEvent event) {
        return event.pipeline() + KEY_SEPARATOR + (event.hasRunHint() ? event.runHint() : "");
    }

    /** Whether a {@link #runKey} is a hinted run's (one run) rather than a pipeline's calls without a hint. */
    public static boolean hintedKey(String runKey) {
        return !runKey.endsWith(KEY_SEPARATOR);
    }

    /** The pipeline a {@link #runKey} is of. */
    public static String pipelineOfKey(String runKey) {
        return runKey.substring(0, runKey.lastIndexOf(KEY_SEPARATOR));
    }

    /** Between a run key's pipeline and its hint. */
    private static final String KEY_SEPARATOR = "\u001f";

    /**
     * The call as assembly holds it. Assembly reads what the adapters extracted ({@link #detail}), never the bodies,
     * except to write a call that came after its run closed to the dead-letter topic whole ({@link #wholeEvent()});
     * only a hinted call can (a run is closed by its hint), so a call without a hint leaves its bodies here: handing
     * the calls of a run to the assembly without them took half the time and allocation (JMH, issue #27), and an open
     * run holds less in state. A hinted call keeps its bodies as bytes ({@link HeldBodies}), not as trees the
     * assembly would rebuild for every call and read for almost none. Whether a failed call is a retry of another
     * still reads, from {@link #requestDigest}.
     */
    public ClassifiedCall forAssembly() {
        if (bodyless(event)) {
            return this;
        }
        return new ClassifiedCall(event.withoutBodies(), stage, detail, requestDigest,
                event.hasRunHint() ? HeldBodies.of(event) : null);
    }

    /** The call as it was captured, bodies and all: what a call that came late is dead-lettered as. */
    public CallEvent wholeEvent() {
        return bodies == null ? event : bodies.restoredTo(event);
    }

    /** Whether the two calls sent the same request body: a failed call and its retry. */
    public boolean sameRequest(ClassifiedCall other) {
        return requestDigest == other.requestDigest;
    }

    private static boolean bodyless(CallEvent e) {
        return (e.request() == null || e.request().body() == null)
                && (e.response() == null || e.response().body() == null);
    }
}

package io.raglog.calls;

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
 */
public record ClassifiedCall(CallEvent event, Stage stage, CallDetail detail, long requestDigest) {

    public ClassifiedCall {
        if (requestDigest == RequestDigest.NONE && stage != null && event != null && event.request() != null) {
            requestDigest = RequestDigest.of(event.request().body());
        }
    }

    public ClassifiedCall(CallEvent event, Stage stage, CallDetail detail) {
        this(event, stage, detail, RequestDigest.NONE);
    }

    /** Where assembly keys this call: one key per hinted run, one per pipeline for calls without a hint. */
    public String runKey() {
        return runKey(event);
    }

    public static String runKey(CallEvent event) {
        return event.pipeline() + "\u001f" + (event.hasRunHint() ? event.runHint() : "");
    }

    /**
     * The call as assembly holds it. Assembly reads what the adapters extracted ({@link #detail}), never the bodies,
     * except to write a call that came after its run closed to the dead-letter topic whole; only a hinted call can
     * (a run is closed by its hint), so a call without a hint leaves its bodies here: handing the calls of a run to
     * the assembly without them took half the time and allocation (JMH, issue #27), and an open run holds less in
     * state. Whether a failed call is a retry of another still reads, from {@link #requestDigest}.
     */
    public ClassifiedCall forAssembly() {
        if (event.hasRunHint() || bodyless(event)) {
            return this;
        }
        return new ClassifiedCall(event.withoutBodies(), stage, detail, requestDigest);
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

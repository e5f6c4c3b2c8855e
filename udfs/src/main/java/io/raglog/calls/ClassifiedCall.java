package io.raglog.calls;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Stage;

/**
 * A captured call and what it is: the unit run assembly keys, buffers and links.
 *
 * @param stage the stage this call serves, null for {@link NotARunCall}
 */
public record ClassifiedCall(CallEvent event, Stage stage, CallDetail detail) {

    /** Where assembly keys this call: one key per hinted run, one per pipeline for calls without a hint. */
    public String runKey() {
        return runKey(event);
    }

    public static String runKey(CallEvent event) {
        return event.pipeline() + "\u001f" + (event.hasRunHint() ? event.runHint() : "");
    }
}

package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long the generator calls of a pipeline that sends run hints wait for a later step of their answer, learned per
 * pipeline on this subtask. A hinted key holds one run, so what a run teaches cannot be kept in its keyed state for
 * the next; it is kept here, on the heap, for the pipelines this subtask has seen answer in steps (a few), the least
 * recently taught dropped past {@link #MAX_PIPELINES}. Not checkpointed: after a restart a pipeline teaches it again,
 * at the cost of one late step.
 */
final class HintedStepWaits {

    static final int MAX_PIPELINES = 1024;

    private final Map<String, Long> waits = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_PIPELINES;
        }
    };

    /** The wait learned for the pipeline of a hinted run key, null when none: no key is read while none is learned. */
    Long waitFor(String hintedKey) {
        return waits.isEmpty() ? null : waits.get(ClassifiedCall.pipelineOfKey(hintedKey));
    }

    void learn(String hintedKey, long waitMs) {
        waits.merge(ClassifiedCall.pipelineOfKey(hintedKey), waitMs, Math::max);
    }
}

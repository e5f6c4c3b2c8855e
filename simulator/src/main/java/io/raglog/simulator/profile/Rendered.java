package io.raglog.simulator.profile;

import io.raglog.schemas.CallEvent;
import io.raglog.simulator.wire.OtlpSpan;
import java.util.List;

/**
 * What a profile emitted for one run or one index-building batch.
 *
 * @param calls proxy-captured calls, in the order they started
 * @param spans OTLP spans, for profiles that emit traces
 * @param runHint the hint the run's calls carried, null when none
 * @param generatorEventId the event id of the generator call that closed the run (null for index building)
 */
public record Rendered(List<CallEvent> calls, List<OtlpSpan> spans, String runHint, String generatorEventId) {}

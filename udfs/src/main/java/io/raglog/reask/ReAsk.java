package io.raglog.reask;

import java.time.Instant;

/**
 * A run that asks again, in other words, what an earlier run of the same user was asked: the user was most likely not
 * served by the earlier answer. The earlier run is the one this marks ({@link #earlierRunId}); the later run is only
 * the evidence.
 *
 * @param session null when both runs came without a session and were matched within the pipeline
 * @param similarity the paraphrase score that passed {@link ReAskSettings#threshold()}, within [0, 1]
 * @param secondsBetween from the earlier question to this one
 */
public record ReAsk(String pipeline, String session, String runId, String earlierRunId, double similarity,
        long secondsBetween, String question, String earlierQuestion, Instant askedAt) {}

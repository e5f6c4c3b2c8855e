package io.raglog.schemas;

import java.util.List;

/**
 * The query rewriter: the question it was given and the queries it wrote (several for multi-query rewriters).
 */
public record RewriteStage(
        boolean present, long latencyMs, List<String> callIds, String model, String input, List<String> outputs)
        implements StageRecord {

    public static RewriteStage absent() {
        return new RewriteStage(false, 0, List.of(), null, null, List.of());
    }
}

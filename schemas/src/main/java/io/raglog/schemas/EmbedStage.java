package io.raglog.schemas;

import java.util.List;

/** The query embedding: the texts actually sent to the embedding model (vectors are not kept in the run). */
public record EmbedStage(boolean present, long latencyMs, List<String> callIds, String model, List<String> texts,
        Integer dimensions) implements StageRecord {

    public static EmbedStage absent() {
        return new EmbedStage(false, 0, List.of(), null, List.of(), null);
    }
}

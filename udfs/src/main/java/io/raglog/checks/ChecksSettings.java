package io.raglog.checks;

import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.util.Map;

/**
 * Settings of the checks stage.
 *
 * @param embeddingCacheEntries passage vectors kept per task manager (passages repeat across runs)
 * @param vectorChecks false skips the embedding model entirely (its features are then missing): the benchmarks'
 *     switch for measuring the job without its most expensive cheap check
 */
public record ChecksSettings(LlmSettings llm, long embeddingCacheEntries, boolean vectorChecks)
        implements Serializable {

    public static final String EMBEDDING_CACHE = "RAGLOG_EMBEDDING_CACHE_ENTRIES";
    public static final String VECTOR_CHECKS = "RAGLOG_VECTOR_CHECKS";

    public ChecksSettings(LlmSettings llm, long embeddingCacheEntries) {
        this(llm, embeddingCacheEntries, true);
    }

    public static ChecksSettings defaults() {
        return fromEnv(Map.of());
    }

    public static ChecksSettings fromEnv(Map<String, String> env) {
        String cache = env.get(EMBEDDING_CACHE);
        return new ChecksSettings(LlmSettings.fromEnv(env),
                cache == null || cache.isBlank() ? SharedEmbedder.DEFAULT_CACHE_ENTRIES : Long.parseLong(cache.strip()),
                Boolean.parseBoolean(env.getOrDefault(VECTOR_CHECKS, "true").strip()));
    }

    public ChecksSettings withVectorChecks(boolean on) {
        return new ChecksSettings(llm, embeddingCacheEntries, on);
    }

    public ChecksSettings withLlm(LlmSettings newLlm) {
        return new ChecksSettings(newLlm, embeddingCacheEntries, vectorChecks);
    }
}

package io.raglog.checks;

import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.util.Map;

/**
 * Settings of the checks stage.
 *
 * @param embeddingCacheEntries passage vectors kept per task manager (passages repeat across runs)
 */
public record ChecksSettings(LlmSettings llm, long embeddingCacheEntries) implements Serializable {

    public static final String EMBEDDING_CACHE = "RAGLOG_EMBEDDING_CACHE_ENTRIES";

    public static ChecksSettings defaults() {
        return fromEnv(Map.of());
    }

    public static ChecksSettings fromEnv(Map<String, String> env) {
        String cache = env.get(EMBEDDING_CACHE);
        return new ChecksSettings(LlmSettings.fromEnv(env),
                cache == null || cache.isBlank() ? SharedEmbedder.DEFAULT_CACHE_ENTRIES : Long.parseLong(cache.strip()));
    }
}

package io.raglog.checkstage;

import io.raglog.checks.SharedEmbedder;
import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.util.Map;

/**
 * Settings of the checks stage.
 *
 * @param embeddingCacheEntries passage vectors kept per task manager (passages repeat across runs)
 * @param vectorChecks false skips the embedding model entirely (its features are then missing): the benchmarks'
 *     switch for measuring the job without its most expensive cheap check
 * @param embeddingThreads intra-op threads of the embedding model's session, shared by every slot of a task manager
 *     (the first task to load the model decides). 1 by default: a slot usually owns one core. Where a slot has a
 *     spare core, 2 embed a SQuAD paragraph in 35–36 ms instead of 48–50 ms (measured on the project's machine)
 */
public record ChecksSettings(LlmSettings llm, long embeddingCacheEntries, boolean vectorChecks, int embeddingThreads)
        implements Serializable {

    public static final String EMBEDDING_CACHE = "RAGLOG_EMBEDDING_CACHE_ENTRIES";
    public static final String VECTOR_CHECKS = "RAGLOG_VECTOR_CHECKS";
    public static final String EMBEDDING_THREADS = "RAGLOG_EMBEDDING_THREADS";

    public ChecksSettings {
        if (embeddingThreads < 1) {
            throw new IllegalArgumentException(EMBEDDING_THREADS + " must be at least 1, got " + embeddingThreads);
        }
    }

    public ChecksSettings(LlmSettings llm, long embeddingCacheEntries) {
        this(llm, embeddingCacheEntries, true, 1);
    }

    public static ChecksSettings defaults() {
        return fromEnv(Map.of());
    }

    public static ChecksSettings fromEnv(Map<String, String> env) {
        String cache = env.get(EMBEDDING_CACHE);
        String threads = env.get(EMBEDDING_THREADS);
        int embeddingThreads;
        try {
            embeddingThreads = threads == null || threads.isBlank() ? 1 : Integer.parseInt(threads.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(EMBEDDING_THREADS + " must be a whole number, got '" + threads + "'");
        }
        return new ChecksSettings(LlmSettings.fromEnv(env),
                cache == null || cache.isBlank() ? SharedEmbedder.DEFAULT_CACHE_ENTRIES : Long.parseLong(cache.strip()),
                Boolean.parseBoolean(env.getOrDefault(VECTOR_CHECKS, "true").strip()), embeddingThreads);
    }

    public ChecksSettings withVectorChecks(boolean on) {
        return new ChecksSettings(llm, embeddingCacheEntries, on, embeddingThreads);
    }

    public ChecksSettings withLlm(LlmSettings newLlm) {
        return new ChecksSettings(newLlm, embeddingCacheEntries, vectorChecks, embeddingThreads);
    }
}

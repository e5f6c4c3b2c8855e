package io.raglog.checkstage;

import io.raglog.config.RaglogOption;
import io.raglog.llm.LlmOptions;
import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of the checks stage.
 *
 * @param embeddingCacheEntries passage vectors kept per task manager (passages repeat across runs)
 * @param vectorChecks false skips the embedding model entirely (its features are then missing, and a bundle's tier gate
 *     stays off): for task managers without the memory or CPU for it, at a cost in detection
 * @param embeddingThreads intra-op threads of the embedding model's session, shared by every slot of a task manager
 *     (the first task to load the model decides). 1 by default: a slot usually owns one core. Where a slot has a
 *     spare core, 2 embed a SQuAD paragraph in 35–36 ms instead of 48–50 ms (measured on the project's machine)
 */
public record ChecksSettings(LlmSettings llm, long embeddingCacheEntries, boolean vectorChecks, int embeddingThreads)
        implements Serializable {

    public static final String EMBEDDING_CACHE = ChecksOptions.EMBEDDING_CACHE_ENTRIES.variable();
    public static final String VECTOR_CHECKS = ChecksOptions.VECTOR_CHECKS.variable();
    public static final String EMBEDDING_THREADS = ChecksOptions.EMBEDDING_THREADS.variable();

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

    /** From environment variables alone (tests, tools): the same options as raglog.yaml, by their variables. */
    public static ChecksSettings fromEnv(Map<String, String> env) {
        List<RaglogOption<?>> options = new ArrayList<>(LlmOptions.ALL);
        options.addAll(ChecksOptions.ALL);
        return from(RaglogOption.fromEnvironment(env, options));
    }

    /** From the job's configuration ({@link ChecksOptions}, {@link LlmOptions}). */
    public static ChecksSettings from(ReadableConfig c) {
        return new ChecksSettings(LlmSettings.from(c), ChecksOptions.EMBEDDING_CACHE_ENTRIES.get(c),
                ChecksOptions.VECTOR_CHECKS.get(c), ChecksOptions.EMBEDDING_THREADS.get(c));
    }

    public ChecksSettings withVectorChecks(boolean on) {
        return new ChecksSettings(llm, embeddingCacheEntries, on, embeddingThreads);
    }

    public ChecksSettings withLlm(LlmSettings newLlm) {
        return new ChecksSettings(newLlm, embeddingCacheEntries, vectorChecks, embeddingThreads);
    }
}

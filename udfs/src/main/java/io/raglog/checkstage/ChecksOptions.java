package io.raglog.checkstage;

import io.raglog.checks.SharedEmbedder;
import io.raglog.config.RaglogOption;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The checks stage's own settings (raglog.yaml's {@code checks} section); with {@link io.raglog.llm.LlmOptions} they
 * fill {@link ChecksSettings}. Their variables keep their older names.
 */
public final class ChecksOptions {

    public static final RaglogOption<Boolean> VECTOR_CHECKS = RaglogOption.of(ConfigOptions.key("checks.vector_checks")
            .booleanType().defaultValue(true)
            .withDescription("false skips the embedding model entirely (its features are then missing)."))
            .withVariable("RAGLOG_VECTOR_CHECKS");
    public static final RaglogOption<Long> EMBEDDING_CACHE_ENTRIES = RaglogOption.of(
            ConfigOptions.key("checks.embedding_cache_entries").longType()
                    .defaultValue(SharedEmbedder.DEFAULT_CACHE_ENTRIES)
                    .withDescription("Passage vectors kept per TaskManager."))
            .withVariable("RAGLOG_EMBEDDING_CACHE_ENTRIES");
    public static final RaglogOption<Integer> EMBEDDING_THREADS = RaglogOption.of(
            ConfigOptions.key("checks.embedding_threads").intType().defaultValue(1)
                    .withDescription("Intra-op threads of the embedding model's session, shared by a TaskManager's "
                            + "slots (the first task to load the model decides)."))
            .withVariable("RAGLOG_EMBEDDING_THREADS");

    public static final List<RaglogOption<?>> ALL = List.of(VECTOR_CHECKS, EMBEDDING_CACHE_ENTRIES, EMBEDDING_THREADS);

    private ChecksOptions() {}
}

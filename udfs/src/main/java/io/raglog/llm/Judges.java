package io.raglog.llm;

import io.raglog.checks.Embedder;

/** Builds the judge the settings name. */
public final class Judges {

    private Judges() {}

    /** @param embedder used by the offline judge only */
    public static Judge create(LlmSettings settings, Embedder embedder) {
        return switch (settings.provider()) {
            case OFFLINE -> new OfflineJudge(embedder);
            case OPENAI, ANTHROPIC, BEDROCK -> new LlmJudge(ChatProviders.create(settings), settings);
        };
    }
}

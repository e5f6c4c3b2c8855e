package io.raglog.cli.reliability;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.LlmTestServer;
import java.util.HashMap;
import java.util.Map;

/** Check settings that send the LLM checks to a test server, configured the way an operator would: environment. */
final class LlmEndpoints {

    static final int RETRIES = 2;
    /**
     * Long enough that a loaded machine does not cut a normal reply off: a timed-out reply would cost an answer or
     * its tokens and throw off the counts the tests assert. Only the injected hangs wait it out, side by side.
     */
    static final int TIMEOUT_MS = 10_000;
    static final double PRICE_INPUT_PER_MTOK = 2.5;
    static final double PRICE_OUTPUT_PER_MTOK = 10.0;

    private LlmEndpoints() {}

    /** OpenAI-compatible, with an API key, short back-offs (Retry-After is capped by the maximum back-off). */
    static ChecksSettings openAi(LlmTestServer server, String apiKey) {
        Map<String, String> env = new HashMap<>();
        env.put(LlmSettings.PROVIDER, "openai");
        env.put(LlmSettings.BASE_URL, server.baseUrl());
        env.put(LlmSettings.MODEL, "gpt-test-mini");
        env.put(LlmSettings.API_KEY, apiKey);
        env.put(LlmSettings.TIMEOUT_MS, String.valueOf(TIMEOUT_MS));
        env.put(LlmSettings.RETRIES, String.valueOf(RETRIES));
        env.put(LlmSettings.BACKOFF_MS, "20");
        env.put(LlmSettings.MAX_BACKOFF_MS, "100");
        env.put(LlmSettings.PRICE_INPUT, String.valueOf(PRICE_INPUT_PER_MTOK));
        env.put(LlmSettings.PRICE_OUTPUT, String.valueOf(PRICE_OUTPUT_PER_MTOK));
        return ChecksSettings.fromEnv(env);
    }
}

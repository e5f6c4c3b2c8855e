package io.raglog.assemble;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Context windows of generator models raglog knows, in tokens, by the model name's start (the most specific first):
 * what a prompt's size is read against when the pipeline's own budget is not in its calls. An unknown model has
 * none, and the prompt's size is then read against the run's other passages alone. Matching the start lets a name's
 * version through whatever way its host writes it: Vertex AI's {@code claude-sonnet-4@20250514} and
 * {@code mistral-large-2411}, Bedrock's {@code -v1:0}.
 */
final class ContextWindows {

    private static final Map<String, Integer> BY_PREFIX = new LinkedHashMap<>();

    /**
     * Amazon Bedrock names a model by its vendor ({@code anthropic.claude-…}, {@code meta.llama3-1-…}), and a
     * cross-region inference profile puts its region group first ({@code us.}, {@code eu.}, {@code apac.}).
     */
    private static final Pattern BEDROCK_PREFIX = Pattern.compile(
            "^(?:(?:us|eu|apac|us-gov|global|jp|au|ca)\\.)?(?:anthropic|meta|mistral|amazon|cohere|ai21|deepseek)\\.");

    static {
        BY_PREFIX.put("gpt-4.1", 1_047_576);
        BY_PREFIX.put("gpt-4o", 128_000);
        BY_PREFIX.put("gpt-4-turbo", 128_000);
        BY_PREFIX.put("gpt-4", 8_192);
        BY_PREFIX.put("gpt-3.5-turbo", 16_385);
        BY_PREFIX.put("o1", 200_000);
        BY_PREFIX.put("o3", 200_000);
        BY_PREFIX.put("o4-mini", 200_000);
        BY_PREFIX.put("claude-", 200_000);
        BY_PREFIX.put("mistral-large", 128_000);
        BY_PREFIX.put("mistral-small", 32_000);
        BY_PREFIX.put("nova-micro", 128_000);
        BY_PREFIX.put("nova-", 300_000);
        BY_PREFIX.put("llama3.1", 128_000);
        BY_PREFIX.put("llama3-1", 128_000); // Bedrock's ids: meta.llama3-1-70b-instruct-v1:0
        BY_PREFIX.put("llama3-2", 128_000);
        BY_PREFIX.put("llama3-3", 128_000);
        BY_PREFIX.put("llama-3.1", 128_000);
        BY_PREFIX.put("llama-3.2", 128_000);
        BY_PREFIX.put("llama-3.3", 128_000); // Vertex AI's meta/llama-3.3-70b-instruct-maas
        BY_PREFIX.put("llama3", 8_192);
        BY_PREFIX.put("llama-3", 8_192);
    }

    private ContextWindows() {}

    /** The window of {@code model}, null when raglog does not know it. */
    static Integer of(String model) {
        if (model == null) {
            return null;
        }
        String m = model.toLowerCase(Locale.ROOT);
        int slash = m.lastIndexOf('/');
        if (slash >= 0) {
            m = m.substring(slash + 1); // "meta-llama/llama-3.1-8b-instruct"
        }
        m = BEDROCK_PREFIX.matcher(m).replaceFirst(""); // "us.anthropic.claude-3-5-haiku-20241022-v1:0"
        for (Map.Entry<String, Integer> e : BY_PREFIX.entrySet()) {
            if (m.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }
}

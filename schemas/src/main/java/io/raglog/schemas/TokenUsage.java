package io.raglog.schemas;

/** Token counts a model reported for one call; null fields when the provider did not say. */
public record TokenUsage(Integer inputTokens, Integer outputTokens) {

    public static final TokenUsage UNKNOWN = new TokenUsage(null, null);

    public TokenUsage plus(TokenUsage other) {
        if (other == null) {
            return this;
        }
        return new TokenUsage(add(inputTokens, other.inputTokens), add(outputTokens, other.outputTokens));
    }

    private static Integer add(Integer a, Integer b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + b;
    }
}

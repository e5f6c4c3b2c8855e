package io.raglog.calls;

import io.raglog.schemas.TokenUsage;
import java.util.List;

/**
 * An embeddings call. Vectors are decoded (OpenAI's default base64 float32 included) so that assembly can match a
 * retrieval call's query vector to the embedding that produced it.
 *
 * @param vectors one per text, in input order; empty when the response carried none
 */
public record EmbedDetail(String adapter, String model, List<String> texts, List<float[]> vectors, TokenUsage usage)
        implements CallDetail {}

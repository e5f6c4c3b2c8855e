package io.raglog.calls;

import io.raglog.schemas.Passage;
import java.util.List;

/**
 * A vector-store query.
 *
 * @param store the product, e.g. {@code qdrant}, {@code pinecone}
 * @param queryText text the store was queried with (hybrid search, server-side vectorisation), else null
 * @param queryVector the query vector when the request carried one, else null
 * @param passages results in the store's order, rank 1 first; text from the payload/metadata field that holds it
 */
public record RetrieveDetail(String adapter, String store, String collection, String queryText, float[] queryVector,
        Integer topK, List<Passage> passages) implements CallDetail {}

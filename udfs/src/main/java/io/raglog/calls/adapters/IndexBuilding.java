package io.raglog.calls.adapters;

import java.util.Arrays;
import java.util.List;

/**
 * Tells an embeddings call made while building the index (documents, in batches) from one made while answering
 * a question (the question, its rewrites, or a HyDE passage). The call carries no label, so the decision is made on
 * the shape of what was sent.
 */
public final class IndexBuilding {

    /**
     * A query-time call embeds one text, or a handful for a multi-query rewriter (3 to 5 queries, rarely more than
     * 10). Ingestion batches are larger: LangChain sends up to 1000 texts per call, LlamaIndex 10 by default, which
     * the length rule below catches.
     */
    public static final int MAX_QUERY_TEXTS = 16;

    /**
     * Questions and rewritten queries are a sentence or two (under 200 characters); ingestion chunks are 500 to
     * 4000 characters. When several texts arrive and the typical one (the median) is this long, they are passages,
     * not queries. A HyDE embedder asked for several hypothetical passages at once would cross it too; HyDE's
     * default is one passage, which the single-text rule below keeps as a query.
     */
    public static final int PASSAGE_MEDIAN_CHARS = 500;

    /**
     * A single text this long is a document chunk: even a HyDE hypothetical passage (a paragraph written to be
     * embedded in place of the question) stays well below it.
     */
    public static final int SINGLE_DOCUMENT_CHARS = 3000;

    private IndexBuilding() {}

    /**
     * @param lengths the character length of each text sent (for token-id inputs, an estimate); not changed
     * @return why the call builds the index, or null when it looks like a query-time call
     */
    public static String reason(int[] lengths) {
        if (lengths.length > MAX_QUERY_TEXTS) {
            return "index building: " + lengths.length + " texts in one embeddings call (more than "
                    + MAX_QUERY_TEXTS + ", a query embeds one to a few)";
        }
        if (lengths.length >= 2) {
            // ints rather than a sorted copy of boxed lengths (issue #27): the same median, at most sixteen of them
            int[] sorted = lengths.clone();
            Arrays.sort(sorted);
            int median = sorted[sorted.length / 2];
            if (median >= PASSAGE_MEDIAN_CHARS) {
                return "index building: " + lengths.length + " passage-length texts (median " + median
                        + " characters, queries stay under " + PASSAGE_MEDIAN_CHARS + ")";
            }
        }
        if (lengths.length == 1 && lengths[0] >= SINGLE_DOCUMENT_CHARS) {
            return "index building: one document-length text (" + lengths[0] + " characters)";
        }
        return null;
    }

    /** Same as {@link #reason(int[])} over texts (a null text counts as empty). */
    public static String reasonForTexts(List<String> texts) {
        int[] lengths = new int[texts.size()];
        int i = 0;
        for (String t : texts) {
            lengths[i++] = t == null ? 0 : t.length();
        }
        return reason(lengths);
    }

    /**
     * The reason an input type states ({@link #reasonForInputType}), else the one the texts' shape gives
     * ({@link #reasonForTexts}): how an embedding API that may say what it embeds is read.
     */
    public static String reasonFor(String inputType, List<String> texts) {
        String stated = reasonForInputType(inputType);
        return stated != null ? stated : reasonForTexts(texts);
    }

    /**
     * Google's embedding models take a title only with a document ({@code RETRIEVAL_DOCUMENT}, the title its
     * heading): a text embedded with one is a document being indexed, whatever else the call says.
     */
    public static String reasonForTitle(String title) {
        if (title == null || title.isBlank()) {
            return null;
        }
        return "index building: a text embedded with a title ('" + title + "') is a document, not a query";
    }

    /** Embedding APIs that take an input type say it outright (Cohere, Voyage, Jina): a document is ingestion. */
    public static String reasonForInputType(String inputType) {
        if (inputType == null) {
            return null;
        }
        String t = inputType.toLowerCase(java.util.Locale.ROOT);
        if (t.contains("document") || t.equals("passage") || t.startsWith("retrieval.passage")) {
            return "index building: input type '" + inputType + "' embeds documents, not a query";
        }
        return null;
    }
}

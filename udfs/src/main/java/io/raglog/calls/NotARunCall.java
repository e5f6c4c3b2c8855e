package io.raglog.calls;

/**
 * A call a known adapter recognised that is not part of answering a question: index building (embeddings of many
 * documents, upserts), vector-store admin (collection info, health). Counted, never a stage.
 */
public record NotARunCall(String adapter, String reason) implements CallDetail {

    /** A call that builds the index: documents embedded for it, or written into a store. */
    public boolean buildsIndex() {
        return reason != null && reason.startsWith("index building");
    }

    /** An embedding adapter's call that embedded documents for the index: what drift and the known passages read. */
    public boolean embedsDocuments() {
        return adapter != null && adapter.contains("embed") && buildsIndex();
    }
}

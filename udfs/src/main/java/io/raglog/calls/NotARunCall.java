package io.raglog.calls;

/**
 * A call a known adapter recognised that is not part of answering a question: index building (embeddings of many
 * documents, upserts), vector-store admin (collection info, health). Counted, never a stage.
 */
public record NotARunCall(String adapter, String reason) implements CallDetail {}

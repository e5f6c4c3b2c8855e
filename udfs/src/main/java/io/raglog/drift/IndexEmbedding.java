package io.raglog.drift;

import java.time.Instant;

/**
 * An index-building embedding call as the drift operator needs it: which pipeline embedded documents, for which index
 * (when the call names one), with which model, at which dimension. Classification counts such calls as not part of a
 * run; this is the little it keeps of them.
 *
 * @param index the collection, namespace or index the call names, null when it names none (the pipeline's index)
 * @param model the embedding model the request or reply names, null when neither does
 * @param dimensions the length of the first returned vector (or the requested {@code dimensions}), null when unknown
 * @param at the call's end (event time)
 */
public record IndexEmbedding(String pipeline, String index, String model, Integer dimensions, Instant at) {}

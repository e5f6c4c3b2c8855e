package io.raglog.calls;

import io.raglog.schemas.CallEvent;

/**
 * Knows one vendor API's wire shapes and nothing of Flink. Adapters are stateless and thread-safe.
 */
public interface ApiAdapter {

    /** Stable name used in metrics and in {@link CallDetail#adapter()}, e.g. {@code cohere.rerank}. */
    String name();

    /** True when this adapter owns the endpoint (by URL path, host, method, body shape). Must be cheap. */
    boolean accepts(CallEvent call);

    /**
     * Reads the call. Only called when {@link #accepts} said yes.
     *
     * @throws AdapterException when the endpoint is ours but the body cannot be read (malformed input: DLQ)
     */
    CallDetail read(CallEvent call) throws AdapterException;
}

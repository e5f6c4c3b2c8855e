package io.raglog.proxy.record;

import io.raglog.schemas.CallEvent;
import java.util.function.Consumer;

/** Where recorded calls go: Kafka in production, a JSONL file for local use. Called from the recorder thread only. */
public interface RecordSink extends AutoCloseable {

    /**
     * Hands one event on. May block briefly (a Kafka producer whose buffer is full); {@code done} is called exactly
     * once, possibly later and from another thread, with null when the event was written or the failure.
     *
     * @param json the event as encoded with {@code Json.MAPPER}
     */
    void write(CallEvent event, byte[] json, Consumer<Exception> done);

    /** For logs: where this sink writes. */
    String describe();

    /** Writes what it still holds, within its own bound, and releases its resources. */
    @Override
    void close();
}

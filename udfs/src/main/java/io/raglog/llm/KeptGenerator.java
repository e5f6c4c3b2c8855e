package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A JSON generator kept from one document to the next, each document a value at its root written with no separator,
 * so its bytes are those a fresh generator writes. A generator per document (the generator, its context and its I/O
 * context) was some 2.3 of the 34.3 KB a run's LLM requests allocated on the calling thread (llmSends, JFR, issue
 * #27). One that failed half-way is dropped, so the next document starts clean. Not thread-safe: one per thread.
 */
final class KeptGenerator {

    /** Makes the generator over the output the documents go to. */
    @FunctionalInterface
    interface Opening {
        JsonGenerator open() throws IOException;
    }

    private final Opening opening;
    private JsonGenerator json;

    KeptGenerator(Opening opening) {
        this.opening = opening;
    }

    /** Writes the document whole (its values balanced) and flushes it to the output. */
    void write(Json.Streamed document) {
        try {
            if (json == null) {
                json = opening.open();
                json.setRootValueSeparator(null);
            }
            document.writeTo(json);
            json.flush();
        } catch (IOException e) {
            json = null;
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            json = null;
            throw e;
        }
    }
}

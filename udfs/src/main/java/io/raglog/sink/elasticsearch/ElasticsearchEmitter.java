package io.raglog.sink.elasticsearch;

import io.raglog.schemas.Json;
import java.io.Serializable;
import java.util.function.Function;

/**
 * Turns a record into the document to write: its index, its {@code _id} and its JSON. The id must be the record's
 * own identity (a run id; pipeline + stage + window for a fault rate), so that writing the record again overwrites it.
 */
@FunctionalInterface
public interface ElasticsearchEmitter<T> extends Serializable {

    BulkOperation emit(T element);

    /** The record as its contract JSON (the shared {@link Json#MAPPER}, snake_case), into one index. */
    static <T> ElasticsearchEmitter<T> json(String index, IdOf<T> id) {
        // Checked here so a bad index name fails when the job is built, not at its first record.
        BulkOperation.index(index, "probe", new byte[] {'{', '}'});
        return element -> BulkOperation.index(index, id.apply(element), Json.writeBytes(element));
    }

    /** A serializable id function. */
    @FunctionalInterface
    interface IdOf<T> extends Function<T, String>, Serializable {}
}

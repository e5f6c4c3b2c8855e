package io.raglog.sink.elasticsearch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/** The two ways raglog deals with a document Elasticsearch refused for good. */
public final class BulkFailureHandlers {

    /** The schema of a dead-letter document, like every raglog record. */
    public static final String DEAD_LETTER_SCHEMA = "raglog.elasticsearch-dead-letter/v1";

    private BulkFailureHandlers() {}

    /**
     * Writes each refused document, verbatim as a string, with Elasticsearch's reason, to {@code index} (the
     * default, {@code raglog-dead-letters}), and the job goes on. One refused document does not stop the debugging
     * queue and the fault rates for everyone; it stays readable and can be written again once its mapping is fixed.
     * A dead letter that is itself refused fails the job: there is nowhere left to keep it.
     */
    public static BulkFailureHandler deadLetterIndex(String index) {
        return new DeadLetterIndex(index);
    }

    /**
     * Fails the job on the first refused document, naming its index, id and Elasticsearch's reason. Nothing is
     * lost (the document is replayed from the last checkpoint), but nothing moves until the mapping is fixed.
     */
    public static BulkFailureHandler failJob() {
        return new FailJob();
    }

    private static final class FailJob implements BulkFailureHandler {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<BulkOperation> onRejected(RejectedDocument rejected) {
            throw new ElasticsearchSinkException(rejected.describe()
                    + "; fix the index mapping (or choose the dead-letter failure handler) and restart the job");
        }
    }

    private static final class DeadLetterIndex implements BulkFailureHandler {
        private static final long serialVersionUID = 1L;

        private final String index;

        DeadLetterIndex(String index) {
            // Validated now, at job build time, rather than at the first rejection.
            BulkOperation.index(index, "probe", new byte[] {'{', '}'});
            this.index = index;
        }

        @Override
        public Optional<BulkOperation> onRejected(RejectedDocument rejected) {
            BulkOperation original = rejected.operation();
            if (original.index().equals(index)) {
                throw new ElasticsearchSinkException("the dead-letter index refused a dead letter: "
                        + rejected.describe());
            }
            ObjectNode letter = Json.MAPPER.createObjectNode();
            letter.put("schema", DEAD_LETTER_SCHEMA);
            letter.put("index", original.index());
            letter.put("doc_id", original.id());
            letter.put("status", rejected.status());
            letter.put("error_type", rejected.errorType());
            letter.put("error_reason", rejected.errorReason());
            letter.put("rejected_at", Instant.now().toString());
            letter.put("document", new String(original.document(), StandardCharsets.UTF_8));
            return Optional.of(BulkOperation.index(index, deadLetterId(original), Json.writeBytes(letter)));
        }

        /** Stable, so a replayed rejection overwrites its dead letter rather than adding a second one. */
        private static String deadLetterId(BulkOperation original) {
            String id = original.index() + "/" + original.id();
            if (id.getBytes(StandardCharsets.UTF_8).length <= BulkOperation.MAX_ID_BYTES) {
                return id;
            }
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
                return original.index() + "/sha256:" + HexFormat.of().formatHex(digest);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JDK", e);
            }
        }

        @Override
        public String toString() {
            return "dead letters to [" + index + "]";
        }
    }
}

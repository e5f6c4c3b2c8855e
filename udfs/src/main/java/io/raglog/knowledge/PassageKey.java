package io.raglog.knowledge;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * What makes two passages the same passage for the known passages: their text, whoever saw it. A run names a passage
 * by the store's id; an index-building call names none (the ids go to the store in another call, or are made there),
 * so both are keyed by their text: whitespace collapsed, case folded, and the document instruction some embedding
 * families want before a passage ("passage: ", "search_document: ") taken off, since the store returns the chunk
 * without it. 64 bits of SHA-256: a collision among a pipeline's 100,000 passages is a one-in-a-billion event.
 */
final class PassageKey {

    /** Document-side instructions of the E5, Nomic, BGE/GTE-style and EmbeddingGemma families. */
    private static final List<String> DOCUMENT_INSTRUCTIONS = List.of("passage:", "search_document:", "document:",
            "represent this document for retrieval:", "title: none | text:");

    private PassageKey() {}

    static String of(String text) {
        String normal = text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        for (String instruction : DOCUMENT_INSTRUCTIONS) {
            if (normal.startsWith(instruction)) {
                normal = normal.substring(instruction.length()).strip();
                break;
            }
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(normal.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}

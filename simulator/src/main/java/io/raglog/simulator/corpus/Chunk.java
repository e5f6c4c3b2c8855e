package io.raglog.simulator.corpus;

/**
 * A piece of a document as a pipeline indexes it.
 *
 * @param chunkId {@code <doc_id>#<ordinal>}, the id stores that accept string ids are given
 * @param index position in the chunked corpus, used as the row of the vector index
 * @param start offset of the chunk's first character in the document, so answer offsets map to chunks
 * @param text exactly {@code document.text.substring(start, start + text.length())}
 */
public record Chunk(String chunkId, int index, String docId, String title, int ordinal, int start, String text) {

    public int end() {
        return start + text.length();
    }
}

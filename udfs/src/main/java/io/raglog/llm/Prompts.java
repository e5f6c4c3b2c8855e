package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.checks.RunTexts;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The versioned prompt files and the fencing of logged content. The instructions go in the system message; the run's
 * data goes in the user message as one JSON document between two marker lines. JSON strings cannot contain a raw line
 * break, so no passage can forge the closing marker line, and a passage that says "ignore the above" is still just a
 * string value the model was told to judge.
 */
public final class Prompts {

    /** Passages per list and characters per passage sent to the model: bounds the cost of one call. */
    static final int MAX_PASSAGES = 20;
    static final int MAX_PASSAGE_CHARS = 2_000;
    static final int MAX_TEXT_CHARS = 4_000;

    private final Map<LlmCheck, EscapedText> system = new EnumMap<>(LlmCheck.class);
    private final Map<LlmCheck, String> promptId = new EnumMap<>(LlmCheck.class);
    private final int maxOutputTokens;

    public Prompts(int maxOutputTokens) {
        this.maxOutputTokens = maxOutputTokens;
        for (LlmCheck check : LlmCheck.values()) {
            system.put(check, EscapedText.of(load(check.promptFile())));
            promptId.put(check, check.promptFile().replace(".txt", ""));
        }
    }

    private static String load(String file) {
        try (InputStream in = Prompts.class.getResourceAsStream("/prompts/" + file)) {
            if (in == null) {
                throw new IllegalStateException("prompt file prompts/" + file + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The check's request for the run; the run's other checks share nothing with it. */
    public ChatRequest request(LlmCheck check, Run run) {
        return forRun(run).request(check);
    }

    /** The requests of a run's checks, made one by one from what is returned, and sharing their long texts. */
    public RunPrompts forRun(Run run) {
        return new RunPrompts(run);
    }

    /**
     * A run's checks send the same texts: the question to each, the retrieved passages to the retrieval and rerank
     * checks, the context to the support and evidence-flow checks. Each long text is escaped once for the run, in the
     * document and then in the body's JSON string, and its bytes are a part of every message that sends it. Held only
     * as long as the run's requests are.
     */
    public final class RunPrompts {

        private final Run run;
        /** The run's long texts, each as it is inside a message's JSON string. */
        private final Map<String, byte[]> escaped = new HashMap<>();

        private RunPrompts(Run run) {
            this.run = run;
        }

        public ChatRequest request(LlmCheck check) {
            return new ChatRequest(promptId.get(check), system.get(check),
                    fence(run.runId() + "/" + check.id(), (json, texts) -> data(json, texts, check, run), escaped),
                    maxOutputTokens);
        }
    }

    /** Writes a document's texts: in place, or as a piece of its message shared with the run's other messages. */
    @FunctionalInterface
    interface Texts {
        void write(JsonGenerator json, String text) throws IOException;
    }

    /**
     * The run's data for the check, written as it is read rather than built as a tree and then written: with the
     * digest kept per thread, that took building a run's requests from 82.1 to 68.6 KB allocated (llmRequests, JMH).
     */
    static void data(JsonGenerator json, Texts texts, LlmCheck check, Run run) throws IOException {
        json.writeStartObject();
        json.writeFieldName("question");
        texts.write(json, cut(RunTexts.question(run), MAX_TEXT_CHARS));
        switch (check) {
            case REWRITE -> {
                json.writeArrayFieldStart("rewritten_queries");
                for (String query : RunTexts.rewrites(run)) {
                    texts.write(json, cut(query, MAX_TEXT_CHARS));
                }
                json.writeEndArray();
            }
            case RETRIEVAL -> passages(json, texts, "passages", RunTexts.retrieved(run).isEmpty()
                    ? run.stages().rerank().input() : RunTexts.retrieved(run));
            case RERANK -> {
                passages(json, texts, "input", run.stages().rerank().input());
                json.writeArrayFieldStart("kept");
                // what the pipeline kept, not what the reranker scored: a reranker asked without top-n scores them all
                List<Passage> kept = RunTexts.kept(run);
                for (int i = 0; i < Math.min(kept.size(), MAX_PASSAGES); i++) {
                    json.writeString(kept.get(i).id());
                }
                json.writeEndArray();
            }
            case SUPPORT -> {
                passages(json, texts, "context", RunTexts.context(run));
                json.writeFieldName("answer");
                texts.write(json, cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
            case EVIDENCE_FLOW -> {
                passages(json, texts, "context", RunTexts.context(run));
                passages(json, texts, "dropped", RunTexts.neverReached(run));
                json.writeFieldName("answer");
                texts.write(json, cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
        }
        json.writeEndObject();
    }

    private static void passages(JsonGenerator json, Texts texts, String field, List<Passage> passages)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (int i = 0; i < Math.min(passages.size(), MAX_PASSAGES); i++) {
            Passage p = passages.get(i);
            json.writeStartObject();
            json.writeStringField("id", p.id());
            json.writeFieldName("text");
            texts.write(json, cut(p.text(), MAX_PASSAGE_CHARS));
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + " [...]";
    }

    /** A document written into the fence, its texts written with {@code texts}. */
    @FunctionalInterface
    interface Document {
        void writeTo(JsonGenerator json, Texts texts) throws IOException;
    }

    /** The document fenced: the field-mapping prompt's sample is fenced exactly as a run's data is. */
    public static EscapedText fence(String seed, ObjectNode data) {
        return fence(seed, (json, texts) -> Json.MAPPER.writeValue(json, data), Map.of());
    }

    /**
     * The marker carries a tag derived from the run and check, so it is stable across replays. The document is written
     * straight into the message, in a buffer each thread keeps, rather than to a string of its own that was then copied
     * again to be joined to the markers: it is most of the ~4,700 prompt tokens a run sends (issue #27). The message is
     * kept only as it goes into a body ({@link EscapedText}), the long texts the document writes with its
     * {@link Texts} as pieces shared through {@code shared}, the run's texts as they are inside a message's string.
     */
    static EscapedText fence(String seed, Document document, Map<String, byte[]> shared) {
        FenceWriter out = FENCE.get();
        out.length = 0; // what a write that failed half-way left
        out.clearPieces();
        char[] tag = out.tag(seed);
        out.append("<<<RAGLOG-DATA ").append(tag).append(">>>\n");
        out.write(document, shared);
        out.append("\n<<<END RAGLOG-DATA ").append(tag).append(">>>");
        return out.take();
    }

    private static final ThreadLocal<FenceWriter> FENCE = ThreadLocal.withInitial(FenceWriter::new);

    /**
     * A writer into one reused buffer; Jackson flushes it with its generator, which is not the end of the message.
     * It keeps the thread's SHA-256 too: getting one per message was 3 % of what building the prompts allocated (JFR).
     */
    private static final class FenceWriter extends Writer {

        /** A larger message's buffer is let go once taken: one outlier does not hold its memory for good. */
        private static final int KEPT_CHARS = 64 * 1024;
        private static final int INITIAL_CHARS = 8 * 1024;

        private static final char[] HEX = "0123456789abcdef".toCharArray();
        /** Room for a run's id and a check's in the seed's bytes the thread keeps. */
        private static final int SEED_BYTES = 256;

        /** Texts shorter than this are written in place: a part of their own would cost more than it saves. */
        private static final int MIN_SHARED_CHARS = 128;

        private char[] chars = new char[INITIAL_CHARS];
        private int length;
        private final MessageDigest sha256;
        /** The generator documents are written with, kept from one to the next. */
        private final KeptGenerator json = new KeptGenerator(() -> Json.MAPPER.createGenerator(this));
        /** The first six bytes of the seed's SHA-256 in hex. */
        private final char[] tag = new char[12];
        /** The seed's SHA-256, and an ASCII seed's bytes (a longer one's are the encoder's). */
        private final byte[] digest = new byte[32];
        private final byte[] seedBytes = new byte[SEED_BYTES];

        FenceWriter() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The generator a shared text's JSON string is written with, apart from the document's. */
        private final KeptGenerator text = new KeptGenerator(() -> Json.MAPPER.createGenerator(this));
        /** Where in the message each shared text goes, and its bytes, in order: arrays the thread keeps. */
        private int[] pieceAt = new int[32];
        private byte[][] pieceBytes = new byte[32][];
        private int pieces;
        /** The run's shared texts while a document is written. */
        private Map<String, byte[]> shared;
        private final Texts texts = this::writeText;
        /** The long text being written as a shared piece, by {@link #writeSharedText}; null between texts. */
        private String sharedText;
        private final Json.Streamed writeSharedText = g -> g.writeString(sharedText);

        /** Writes the document whole, as a fresh generator would (a document's values are balanced). */
        void write(Document document, Map<String, byte[]> shared) {
            this.shared = shared;
            try {
                json.write(g -> document.writeTo(g, texts));
            } finally {
                this.shared = null;
            }
        }

        /**
         * A long text is left out of the message and noted as a piece: the generator writes what goes before a value
         * (an empty raw value), and the text's JSON string is written after it, escaped into the body's string once
         * for the run, and cut from the message again.
         */
        private void writeText(JsonGenerator json, String value) throws IOException {
            if (value == null || value.length() < MIN_SHARED_CHARS) {
                json.writeString(value);
                return;
            }
            json.writeRawValue("");
            json.flush();
            int at = length;
            byte[] bytes = shared.get(value);
            if (bytes == null) {
                sharedText = value;
                try {
                    text.write(writeSharedText); // one document made once, not a lambda per text (llmRequests, JFR)
                } finally {
                    sharedText = null;
                }
                bytes = EscapedText.piece(chars, at, length, false, false);
                shared.put(value, bytes);
                length = at;
            }
            if (pieces == pieceAt.length) {
                pieceAt = Arrays.copyOf(pieceAt, 2 * pieces);
                pieceBytes = Arrays.copyOf(pieceBytes, 2 * pieces);
            }
            pieceAt[pieces] = at;
            pieceBytes[pieces++] = bytes;
        }

        /**
         * The seed's tag, in a buffer the next message reuses. An ASCII seed (a run's id and a check's, as a rule) is
         * digested from bytes the thread keeps, and the digest written into an array it keeps too: the seed's bytes and
         * the digest's array per message were 4 % of what building a run's LLM requests allocated (llmRequests, JFR).
         */
        char[] tag(String seed) {
            digestSeed(seed);
            try {
                sha256.digest(digest, 0, digest.length);
            } catch (DigestException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < tag.length / 2; i++) {
                tag[2 * i] = HEX[(digest[i] >> 4) & 0xF];
                tag[2 * i + 1] = HEX[digest[i] & 0xF];
            }
            return tag;
        }

        /** Feeds the seed's UTF-8 bytes to the digest. */
        private void digestSeed(String seed) {
            int n = seed.length();
            if (n > seedBytes.length) {
                sha256.update(seed.getBytes(StandardCharsets.UTF_8));
                return;
            }
            for (int i = 0; i < n; i++) {
                char c = seed.charAt(i);
                if (c >= 0x80) { // more than one byte in UTF-8: the encoder's bytes
                    sha256.update(seed.getBytes(StandardCharsets.UTF_8));
                    return;
                }
                seedBytes[i] = (byte) c;
            }
            sha256.update(seedBytes, 0, n);
        }

        FenceWriter append(String text) {
            write(text, 0, text.length());
            return this;
        }

        FenceWriter append(char[] text) {
            write(text, 0, text.length);
            return this;
        }

        @Override
        public void write(char[] text, int offset, int count) {
            ensure(count);
            System.arraycopy(text, offset, chars, length, count);
            length += count;
        }

        @Override
        public void write(String text, int offset, int count) {
            ensure(count);
            text.getChars(offset, offset + count, chars, length);
            length += count;
        }

        private void ensure(int more) {
            if (length + more > chars.length) {
                chars = Arrays.copyOf(chars, Math.max(length + more, 2 * chars.length));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}

        EscapedText take() {
            EscapedText message = pieces == 0 ? EscapedText.of(chars, 0, length) : joined();
            clearPieces();
            if (chars.length > KEPT_CHARS) {
                chars = new char[INITIAL_CHARS];
            }
            length = 0;
            return message;
        }

        /** Forgets the pieces, and lets go of their bytes: the thread holds nothing of a run past its messages. */
        void clearPieces() {
            Arrays.fill(pieceBytes, 0, pieces, null);
            pieces = 0;
        }

        /** The message's own characters escaped between its pieces, each piece's bytes in its place. */
        private EscapedText joined() {
            byte[][] parts = new byte[2 * pieces + 1][];
            int from = 0;
            for (int i = 0; i < pieces; i++) {
                parts[2 * i] = EscapedText.piece(chars, from, pieceAt[i], i == 0, false);
                parts[2 * i + 1] = pieceBytes[i];
                from = pieceAt[i];
            }
            parts[parts.length - 1] = EscapedText.piece(chars, from, length, false, true);
            return EscapedText.ofParts(parts);
        }
    }
}

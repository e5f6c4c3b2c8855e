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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.EnumMap;
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

    public ChatRequest request(LlmCheck check, Run run) {
        return new ChatRequest(promptId.get(check), system.get(check),
                fence(run.runId() + "/" + check.id(), json -> data(json, check, run)), maxOutputTokens);
    }

    /**
     * The run's data for the check, written as it is read rather than built as a tree and then written: with the
     * digest kept per thread, that took building a run's requests from 82.1 to 68.6 KB allocated (llmRequests, JMH).
     */
    static void data(JsonGenerator json, LlmCheck check, Run run) throws IOException {
        json.writeStartObject();
        json.writeStringField("question", cut(RunTexts.question(run), MAX_TEXT_CHARS));
        switch (check) {
            case REWRITE -> {
                json.writeArrayFieldStart("rewritten_queries");
                for (String query : RunTexts.rewrites(run)) {
                    json.writeString(cut(query, MAX_TEXT_CHARS));
                }
                json.writeEndArray();
            }
            case RETRIEVAL -> passages(json, "passages", RunTexts.retrieved(run).isEmpty()
                    ? run.stages().rerank().input() : RunTexts.retrieved(run));
            case RERANK -> {
                passages(json, "input", run.stages().rerank().input());
                json.writeArrayFieldStart("kept");
                // what the pipeline kept, not what the reranker scored: a reranker asked without top-n scores them all
                List<Passage> kept = RunTexts.kept(run);
                for (int i = 0; i < Math.min(kept.size(), MAX_PASSAGES); i++) {
                    json.writeString(kept.get(i).id());
                }
                json.writeEndArray();
            }
            case SUPPORT -> {
                passages(json, "context", RunTexts.context(run));
                json.writeStringField("answer", cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
            case EVIDENCE_FLOW -> {
                passages(json, "context", RunTexts.context(run));
                passages(json, "dropped", RunTexts.dropped(run));
                json.writeStringField("answer", cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
        }
        json.writeEndObject();
    }

    private static void passages(JsonGenerator json, String field, List<Passage> passages) throws IOException {
        json.writeArrayFieldStart(field);
        for (int i = 0; i < Math.min(passages.size(), MAX_PASSAGES); i++) {
            Passage p = passages.get(i);
            json.writeStartObject();
            json.writeStringField("id", p.id());
            json.writeStringField("text", cut(p.text(), MAX_PASSAGE_CHARS));
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + " [...]";
    }

    /** A document written into the fence. */
    @FunctionalInterface
    interface Document {
        void writeTo(JsonGenerator json) throws IOException;
    }

    /** The document fenced: the field-mapping prompt's sample is fenced exactly as a run's data is. */
    public static EscapedText fence(String seed, ObjectNode data) {
        return fence(seed, json -> Json.MAPPER.writeValue(json, data));
    }

    /**
     * The marker carries a tag derived from the run and check, so it is stable across replays. The document is written
     * straight into the message, in a buffer each thread keeps, rather than to a string of its own that was then copied
     * again to be joined to the markers: it is most of the ~4,700 prompt tokens a run sends (issue #27). The message is
     * kept only as it goes into a body ({@link EscapedText}).
     */
    static EscapedText fence(String seed, Document document) {
        FenceWriter out = FENCE.get();
        out.length = 0; // what a write that failed half-way left
        char[] tag = out.tag(seed);
        out.append("<<<RAGLOG-DATA ").append(tag).append(">>>\n");
        out.write(document);
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

        private char[] chars = new char[INITIAL_CHARS];
        private int length;
        private final MessageDigest sha256;
        /** The generator documents are written with, kept from one to the next. */
        private final KeptGenerator json = new KeptGenerator(() -> Json.MAPPER.createGenerator(this));
        /** The first six bytes of the seed's SHA-256 in hex. */
        private final char[] tag = new char[12];

        FenceWriter() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Writes the document whole, as a fresh generator would (a document's values are balanced). */
        void write(Document document) {
            json.write(document::writeTo);
        }

        /** The seed's tag, in a buffer the next message reuses. */
        char[] tag(String seed) {
            byte[] digest = sha256.digest(seed.getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < tag.length / 2; i++) {
                tag[2 * i] = HEX[(digest[i] >> 4) & 0xF];
                tag[2 * i + 1] = HEX[digest[i] & 0xF];
            }
            return tag;
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
            EscapedText message = EscapedText.of(chars, 0, length);
            if (chars.length > KEPT_CHARS) {
                chars = new char[INITIAL_CHARS];
            }
            length = 0;
            return message;
        }
    }
}

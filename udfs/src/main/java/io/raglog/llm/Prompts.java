package io.raglog.llm;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.EnumMap;
import java.util.HexFormat;
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

    private final Map<LlmCheck, String> system = new EnumMap<>(LlmCheck.class);
    private final int maxOutputTokens;

    public Prompts(int maxOutputTokens) {
        this.maxOutputTokens = maxOutputTokens;
        for (LlmCheck check : LlmCheck.values()) {
            system.put(check, load(check.promptFile()));
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
        String promptId = check.promptFile().replace(".txt", "");
        return new ChatRequest(promptId, system.get(check), fence(run.runId() + "/" + check.id(), data(check, run)),
                maxOutputTokens);
    }

    static ObjectNode data(LlmCheck check, Run run) {
        ObjectNode data = Json.MAPPER.createObjectNode();
        data.put("question", cut(RunTexts.question(run), MAX_TEXT_CHARS));
        switch (check) {
            case REWRITE -> {
                ArrayNode queries = data.putArray("rewritten_queries");
                RunTexts.rewrites(run).forEach(q -> queries.add(cut(q, MAX_TEXT_CHARS)));
            }
            case RETRIEVAL -> passages(data.putArray("passages"), RunTexts.retrieved(run).isEmpty()
                    ? run.stages().rerank().input() : RunTexts.retrieved(run));
            case RERANK -> {
                passages(data.putArray("input"), run.stages().rerank().input());
                ArrayNode kept = data.putArray("kept");
                // what the pipeline kept, not what the reranker scored: a reranker asked without top-n scores them all
                RunTexts.kept(run).stream().limit(MAX_PASSAGES).forEach(p -> kept.add(p.id()));
            }
            case SUPPORT -> {
                passages(data.putArray("context"), RunTexts.context(run));
                data.put("answer", cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
            case EVIDENCE_FLOW -> {
                passages(data.putArray("context"), RunTexts.context(run));
                passages(data.putArray("dropped"), RunTexts.dropped(run));
                data.put("answer", cut(run.stages().generate().answer(), MAX_TEXT_CHARS));
            }
        }
        return data;
    }

    private static void passages(ArrayNode into, List<Passage> passages) {
        passages.stream().limit(MAX_PASSAGES).forEach(p -> into.addObject()
                .put("id", p.id())
                .put("text", cut(p.text(), MAX_PASSAGE_CHARS)));
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + " [...]";
    }

    /**
     * The marker carries a tag derived from the run and check, so it is stable across replays. The document is written
     * straight into the message, in a buffer each thread keeps, rather than to a string of its own that was then copied
     * again to be joined to the markers: it is most of the ~4,700 prompt tokens a run sends (issue #27).
     */
    public static String fence(String seed, ObjectNode data) {
        String tag = tag(seed);
        FenceWriter out = FENCE.get();
        out.text.setLength(0); // what a write that failed half-way left
        out.text.append("<<<RAGLOG-DATA ").append(tag).append(">>>\n");
        try {
            Json.MAPPER.writeValue(out, data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.text.append("\n<<<END RAGLOG-DATA ").append(tag).append(">>>");
        return out.take();
    }

    private static final ThreadLocal<FenceWriter> FENCE = ThreadLocal.withInitial(FenceWriter::new);

    /** A writer into one reused builder; Jackson's {@code writeValue} closes it, which is not the end of the message. */
    private static final class FenceWriter extends Writer {

        /** A larger message's buffer is let go once taken: one outlier does not hold its memory for good. */
        private static final int KEPT_CHARS = 64 * 1024;

        private StringBuilder text = new StringBuilder(8 * 1024);

        @Override
        public void write(char[] chars, int offset, int length) {
            text.append(chars, offset, length);
        }

        @Override
        public void write(String chars, int offset, int length) {
            text.append(chars, offset, offset + length);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}

        String take() {
            String message = text.toString();
            if (text.capacity() > KEPT_CHARS) {
                text = new StringBuilder(8 * 1024);
            } else {
                text.setLength(0);
            }
            return message;
        }
    }

    private static String tag(String seed) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

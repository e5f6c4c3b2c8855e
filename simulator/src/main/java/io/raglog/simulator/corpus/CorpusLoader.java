package io.raglog.simulator.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Reads a corpus: the SQuAD 2.0 file raglog ships (on the classpath), a SQuAD 2.0 JSON file, or a directory holding the simple JSONL pair
 * {@code documents.jsonl} ({@code doc_id}, {@code title}, {@code text}) and {@code questions.jsonl}
 * ({@code question_id}, {@code question}, {@code is_answerable}, {@code relevant_doc_ids}, {@code expected_answer},
 * optionally {@code acceptable_answers}), so a team can simulate over its own documents.
 */
public final class CorpusLoader {

    /** Resource name, relative to this class, of the corpus raglog ships (see {@link #loadShipped()}). */
    public static final String SHIPPED_SQUAD = "squad-dev-v2.0.json.gz";
    public static final String DOCUMENTS_FILE = "documents.jsonl";
    public static final String QUESTIONS_FILE = "questions.jsonl";

    private CorpusLoader() {}

    /** A directory is read as the JSONL pair, a file as SQuAD 2.0 JSON. */
    public static Corpus load(Path path) {
        if (Files.isDirectory(path)) {
            return loadJsonl(path);
        }
        if (Files.isRegularFile(path)) {
            return loadSquad(path);
        }
        throw new IllegalArgumentException("no corpus at " + path.toAbsolutePath());
    }

    /**
     * The default corpus travels with raglog: 16 articles of the SQuAD 2.0 dev set (CC BY-SA 4.0; attribution and
     * licence in {@code SQUAD-LICENSE.txt} beside it), gzipped on the classpath, so a clone with nothing beside it
     * simulates, tests and benchmarks the same as here.
     */
    public static Corpus loadShipped() {
        try (InputStream in = CorpusLoader.class.getResourceAsStream(SHIPPED_SQUAD)) {
            if (in == null) {
                throw new IllegalStateException("the shipped corpus " + SHIPPED_SQUAD
                        + " is not on the classpath (io/raglog/simulator/corpus); pass --corpus");
            }
            return readSquad(Json.MAPPER.readTree(new GZIPInputStream(in)), "the shipped " + SHIPPED_SQUAD);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped corpus " + SHIPPED_SQUAD, e);
        }
    }

    static Corpus loadSquad(Path file) {
        try {
            return readSquad(Json.MAPPER.readTree(file.toFile()), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read SQuAD file " + file, e);
        }
    }

    private static Corpus readSquad(JsonNode root, String source) {
        JsonNode data = root.path("data");
        if (!data.isArray()) {
            throw new IllegalArgumentException(source + " is not SQuAD JSON: no data array");
        }
        List<Document> documents = new ArrayList<>();
        List<Question> questions = new ArrayList<>();
        for (JsonNode article : data) {
            String title = article.path("title").asText();
            int paragraph = 0;
            for (JsonNode p : article.path("paragraphs")) {
                String docId = title + "-" + paragraph++;
                documents.add(new Document(docId, title.replace('_', ' '), p.path("context").asText()));
                for (JsonNode qa : p.path("qas")) {
                    questions.add(squadQuestion(qa, docId));
                }
            }
        }
        return new Corpus(documents, questions);
    }

    private static Question squadQuestion(JsonNode qa, String docId) {
        boolean impossible = qa.path("is_impossible").asBoolean(false);
        List<String> answers = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (JsonNode a : qa.path("answers")) {
            String text = a.path("text").asText();
            // Annotators repeat each other; keep one copy of each (text, offset) so evidence lookups stay cheap.
            if (seen.add(text + "\u0000" + a.path("answer_start").asInt())) {
                answers.add(text);
                starts.add(a.path("answer_start").asInt());
            }
        }
        List<String> plausible = new ArrayList<>();
        for (JsonNode a : qa.path("plausible_answers")) {
            String text = a.path("text").asText();
            if (!plausible.contains(text)) {
                plausible.add(text);
            }
        }
        boolean answerable = !impossible && !answers.isEmpty();
        return new Question(qa.path("id").asText(), qa.path("question").asText().strip(), answerable,
                List.of(docId), answerable ? answers.get(0) : null, answerable ? answers : List.of(),
                answerable ? starts : List.of(), plausible);
    }

    static Corpus loadJsonl(Path dir) {
        List<Document> documents = new ArrayList<>();
        forEachLine(dir.resolve(DOCUMENTS_FILE), (node, where) -> documents.add(new Document(
                required(node, "doc_id", where), node.path("title").asText(""), required(node, "text", where))));
        List<Question> questions = new ArrayList<>();
        forEachLine(dir.resolve(QUESTIONS_FILE), (node, where) -> questions.add(jsonlQuestion(node, where)));
        return new Corpus(documents, questions);
    }

    private static Question jsonlQuestion(JsonNode node, String where) {
        String id = required(node, "question_id", where);
        String question = required(node, "question", where);
        boolean answerable = node.path("is_answerable").asBoolean(true);
        List<String> relevant = new ArrayList<>();
        node.path("relevant_doc_ids").forEach(n -> relevant.add(n.asText()));
        JsonNode expected = node.path("expected_answer");
        List<String> acceptable = new ArrayList<>();
        if (expected.isTextual() && !expected.asText().isBlank()) {
            acceptable.add(expected.asText());
        }
        node.path("acceptable_answers").forEach(n -> {
            if (!acceptable.contains(n.asText())) {
                acceptable.add(n.asText());
            }
        });
        if (answerable && acceptable.isEmpty()) {
            throw new IllegalArgumentException(where + ": answerable question " + id + " has no expected_answer");
        }
        if (answerable && relevant.isEmpty()) {
            throw new IllegalArgumentException(where + ": answerable question " + id + " has no relevant_doc_ids");
        }
        return new Question(id, question, answerable, relevant, answerable ? acceptable.get(0) : null,
                answerable ? acceptable : List.of(), List.of(), answerable ? List.of() : acceptable);
    }

    private static String required(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(where + ": missing or empty \"" + field + "\"");
        }
        return value.asText();
    }

    private interface LineHandler {
        void accept(JsonNode node, String where);
    }

    private static void forEachLine(Path file, LineHandler handler) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String where = file.getFileName() + ":" + number;
                JsonNode node;
                try {
                    node = Json.MAPPER.readTree(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalArgumentException(where + ": not JSON: " + e.getOriginalMessage());
                }
                handler.accept(node, where);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}

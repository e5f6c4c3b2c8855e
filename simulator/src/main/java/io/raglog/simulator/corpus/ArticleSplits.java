package io.raglog.simulator.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fixed partition of the SQuAD file's articles into {@code train}, {@code test}, {@code unseen} and
 * {@code lockbox} ({@code squad-splits.json} beside this class says why these articles go where they do). Splitting by
 * article keeps a paragraph's questions, answer spans and evidence chunks on one side: a split by run or seed did not.
 * Only the questions are split; the knowledge base every question is asked of stays the whole corpus.
 */
public final class ArticleSplits {

    public static final String TRAIN = "train";
    public static final String TEST = "test";
    public static final String UNSEEN = "unseen";
    public static final String LOCKBOX = "lockbox";
    static final String RESOURCE = "squad-splits.json";

    private static final Map<String, List<String>> SPLITS = load();

    private ArticleSplits() {}

    public static Set<String> names() {
        return SPLITS.keySet();
    }

    /** The articles (SQuAD titles, underscores kept) of the split called {@code name}. */
    public static List<String> articles(String name) {
        List<String> articles = SPLITS.get(name);
        if (articles == null) {
            throw new IllegalArgumentException("unknown split " + name + "; known: " + SPLITS.keySet());
        }
        return articles;
    }

    /**
     * The article a document belongs to: SQuAD document ids are {@code <title>-<paragraph index>}; an id without a
     * numeric suffix (a JSONL corpus's own ids) is its own article.
     */
    public static String articleOf(String docId) {
        int dash = docId.lastIndexOf('-');
        if (dash <= 0 || dash == docId.length() - 1) {
            return docId;
        }
        for (int i = dash + 1; i < docId.length(); i++) {
            if (!Character.isDigit(docId.charAt(i))) {
                return docId;
            }
        }
        return docId.substring(0, dash);
    }

    /** The corpus's questions whose relevant documents all lie in {@code articles}, in corpus order. */
    public static List<Question> questionsOf(Corpus corpus, Set<String> articles) {
        List<Question> out = new ArrayList<>();
        for (Question q : corpus.questions()) {
            if (!q.relevantDocIds().isEmpty()
                    && q.relevantDocIds().stream().allMatch(id -> articles.contains(articleOf(id)))) {
                out.add(q);
            }
        }
        return out;
    }

    private static Map<String, List<String>> load() {
        try (InputStream in = ArticleSplits.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            JsonNode splits = Json.MAPPER.readTree(in).path("splits");
            Map<String, List<String>> out = new LinkedHashMap<>();
            splits.fields().forEachRemaining(e -> {
                List<String> articles = new ArrayList<>();
                e.getValue().forEach(a -> articles.add(a.asText()));
                out.put(e.getKey(), List.copyOf(articles));
            });
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}

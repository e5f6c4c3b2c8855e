package io.raglog.simulator.corpus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Documents and the questions asked about them, in the order the source listed them (order is part of a seed). */
public final class Corpus {

    private final List<Document> documents;
    private final List<Question> questions;
    private final Map<String, Document> byId;

    public Corpus(List<Document> documents, List<Question> questions) {
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("corpus has no documents");
        }
        if (questions.isEmpty()) {
            throw new IllegalArgumentException("corpus has no questions");
        }
        this.documents = List.copyOf(documents);
        this.questions = List.copyOf(questions);
        this.byId = new LinkedHashMap<>();
        for (Document d : documents) {
            if (byId.put(d.docId(), d) != null) {
                throw new IllegalArgumentException("duplicate doc_id " + d.docId());
            }
        }
        for (Question q : questions) {
            for (String id : q.relevantDocIds()) {
                if (!byId.containsKey(id)) {
                    throw new IllegalArgumentException(
                            "question " + q.questionId() + " names unknown relevant doc_id " + id);
                }
            }
        }
    }

    public List<Document> documents() {
        return documents;
    }

    public List<Question> questions() {
        return questions;
    }

    public Document document(String docId) {
        Document d = byId.get(docId);
        if (d == null) {
            throw new IllegalArgumentException("unknown doc_id " + docId);
        }
        return d;
    }
}

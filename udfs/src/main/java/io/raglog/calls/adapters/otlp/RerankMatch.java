package io.raglog.calls.adapters.otlp;

import java.util.List;
import java.util.function.Function;

/**
 * A reranker span's output documents matched back to the input documents they reorder, since spans record documents,
 * not indexes: by id when both carry one, else by text. An input not yet matched is preferred, so that duplicated
 * passages map to distinct indexes.
 */
final class RerankMatch {

    /** One document as a reranker span records it; either part may be null. */
    record Document(String id, String text) {}

    private RerankMatch() {}

    /** The index into {@code inputs} of each output document in turn; -1 for one that matches no input. */
    static int[] inputIndexes(List<Document> inputs, List<Document> outputs) {
        int[] indexes = new int[outputs.size()];
        boolean[] used = new boolean[inputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            indexes[i] = inputIndexOf(outputs.get(i), inputs, used);
            if (indexes[i] >= 0) {
                used[indexes[i]] = true;
            }
        }
        return indexes;
    }

    private static int inputIndexOf(Document output, List<Document> inputs, boolean[] used) {
        if (output.id() != null) {
            int byId = firstMatch(inputs, used, Document::id, output.id());
            if (byId >= 0) {
                return byId;
            }
        }
        return output.text() == null ? -1 : firstMatch(inputs, used, Document::text, output.text());
    }

    private static int firstMatch(List<Document> inputs, boolean[] used, Function<Document, String> key,
            String value) {
        int fallback = -1;
        for (int i = 0; i < inputs.size(); i++) {
            String candidate = key.apply(inputs.get(i));
            if (candidate != null && (candidate.equals(value) || candidate.strip().equals(value.strip()))) {
                if (!used[i]) {
                    return i;
                }
                if (fallback < 0) {
                    fallback = i;
                }
            }
        }
        return fallback;
    }
}

package io.raglog.assemble;

import io.raglog.schemas.Stage;
import java.util.Collection;
import java.util.List;

/**
 * How strongly two calls of one pipeline belong to the same run, judged by content alone (for pipelines that send
 * no run hint). Strong links are identities a pipeline cannot produce by chance: the same question, a rewrite's
 * output sent verbatim for embedding, the embedding returned equal to the retrieval's query vector. Weak links are
 * passage overlaps, which concurrent runs about the same document can share, so they only fill stages the strong
 * links left empty.
 */
final class ContentLinks {

    /** Cosine above which two float32 vectors are the same embedding (a JSON round trip changes the last bits). */
    static final double SAME_VECTOR = 0.9999;

    private ContentLinks() {}

    static boolean strong(CallSignals a, CallSignals b) {
        if (a.stage.ordinal() > b.stage.ordinal()) {
            CallSignals t = a;
            a = b;
            b = t;
        }
        // the generator and the rewriter both carry the user's question
        if (a.question != null && a.question.equals(b.question)) {
            return true;
        }
        // a query one call produced or carried is what the next call consumed
        if (sharesQuery(a, b)) {
            return true;
        }
        return a.stage == Stage.EMBED && b.stage == Stage.RETRIEVE && sameVector(a.producedVectors, b.consumedVector);
    }

    private static boolean sharesQuery(CallSignals a, CallSignals b) {
        // most calls consume no query (chats, a retrieval by vector alone): no iterator made for them, since linking
        // asks this of every member against every candidate, and again after each member it adds
        if (!b.consumedQueries.isEmpty()) {
            for (String q : b.consumedQueries) {
                if (q.equals(a.question) || a.producedQueries.contains(q) || a.consumedQueries.contains(q)) {
                    return true;
                }
            }
        }
        return b.question != null && (a.producedQueries.contains(b.question) || a.consumedQueries.contains(b.question));
    }

    /**
     * The share of {@code passages} found in {@code target}: the reranker's kept passages in the generator prompt,
     * the retrieval's passages among the reranker's documents, the retrieval's passages in the prompt.
     */
    static double weak(CallSignals earlier, CallSignals later) {
        List<String> passages = earlier.producedPassages;
        if (passages.isEmpty()) {
            return 0;
        }
        int found = 0;
        for (String p : passages) {
            if (p.isEmpty()) {
                continue;
            }
            if (later.stage == Stage.GENERATE ? later.prompt.contains(p) : later.consumedPassages.contains(p)) {
                found++;
            }
        }
        if (later.stage == Stage.GENERATE && earlier.stage == Stage.RETRIEVE) {
            // without a reranker a pipeline often stuffs only its top few passages: judge by what could fit
            return found == 0 ? 0 : Math.min(1.0, found / (double) Math.min(passages.size(), 3));
        }
        return found / (double) passages.size();
    }

    static boolean sameVector(Collection<float[]> produced, float[] consumed) {
        if (consumed == null) {
            return false;
        }
        for (float[] v : produced) {
            if (sameVector(v, consumed)) {
                return true;
            }
        }
        return false;
    }

    static boolean sameVector(float[] a, float[] b) {
        return b != null && a.length == b.length && cosine(a, b) >= SAME_VECTOR;
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * (double) b[i];
            na += a[i] * (double) a[i];
            nb += b[i] * (double) b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}

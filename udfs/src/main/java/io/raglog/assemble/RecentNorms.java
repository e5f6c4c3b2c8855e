package io.raglog.assemble;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link Texts#norm} of the passage texts met lately on this thread, by content. Why: a run carries the same passages
 * several times over, each call its own copy of the text (the retrieval's passages, the reranker's documents, the
 * generator's prompt split into passages), and each copy was normalised anew; finding a copy by its hash and one
 * comparison costs a fraction of normalising it, and its normalised text is not made again. Normalising is a pure
 * function of the text, so a text found here gives exactly what normalising it would.
 */
final class RecentNorms {

    /** Passages of the last few dozen runs of a task: the copies of one run's passages come within one run. */
    static final int KEPT = 1024;

    private static final ThreadLocal<Map<String, String>> RECENT = ThreadLocal.withInitial(Lru::new);

    private RecentNorms() {}

    static String norm(String text) {
        if (text == null) {
            return Texts.norm(null);
        }
        Map<String, String> recent = RECENT.get();
        String normalised = recent.get(text);
        if (normalised == null) {
            normalised = Texts.norm(text);
            recent.put(text, normalised);
        }
        return normalised;
    }

    /** The least recently asked text leaves first. */
    private static final class Lru extends LinkedHashMap<String, String> {
        private static final long serialVersionUID = 1L;

        Lru() {
            super(KEPT * 4 / 3 + 1, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > KEPT;
        }
    }
}

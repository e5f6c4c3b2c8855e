package io.raglog.assemble;

import io.raglog.memo.PerThreadMemo;

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

    private static final PerThreadMemo<String> RECENT = new PerThreadMemo<>(KEPT);

    private RecentNorms() {}

    static String norm(String text) {
        return text == null ? Texts.norm(null) : RECENT.get(text, Texts::norm);
    }
}

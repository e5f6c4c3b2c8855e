package io.raglog.checks;

import java.util.Locale;

/**
 * The lower-case words this thread read recently, to hand out again instead of a new copy. The checks read the words
 * of every passage a run was handed, and most are words the thread has read many times ("the", "revenue", "2023"):
 * copying each out of its text (and lower-casing it, a second copy) was the largest part of what the rule checks still
 * allocated once the indexes' sets were compact (JFR).
 *
 * <p>Safe to share: a pooled word is an immutable String equal to the copy it replaces, so no result changes (only
 * which equal instance a set or list holds). Per thread, so the Flink task and the LLM checks' threads never share
 * (or lock) one; bounded, since a thread's pool is dropped and started afresh once it holds {@link #CAPACITY} words.
 */
final class WordPool {

    /** Words kept per thread: English prose needs far fewer; odd tokens (ids, numbers) fill it up slowly. */
    static final int CAPACITY = 1 << 16;

    private static final ThreadLocal<StringSet> RECENT = ThreadLocal.withInitial(WordPool::emptyPool);

    private WordPool() {}

    /** {@code text.substring(start, end).toLowerCase(Locale.ROOT)}, pooled when the word is ASCII. */
    static String lowerCase(String text, int start, int end) {
        StringSet pool = RECENT.get();
        String seen = pool.findLowerCase(text, start, end);
        if (seen != null) {
            return seen;
        }
        String word = text.substring(start, end).toLowerCase(Locale.ROOT);
        if (isAscii(word)) { // findLowerCase looks up ASCII words only: others are not worth keeping
            if (pool.size() >= CAPACITY) {
                pool = emptyPool();
                RECENT.set(pool);
            }
            pool.insert(word);
        }
        return word;
    }

    private static boolean isAscii(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (word.charAt(i) >= 128) {
                return false;
            }
        }
        return true;
    }

    private static StringSet emptyPool() {
        return new StringSet(4096);
    }
}

package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@link Texts#norm} of the texts of some calls, each computed once: linking normalises a call's prompt and passages,
 * and building its run reads the same ones again (the prompt alone is several KB). Keyed by identity of the logged
 * string, which is cheap to hash and cannot mistake one text for another; a prompt by identity of its chat, since its
 * text is its messages joined ({@link ChatDetail#promptText()}), a new string on every call.
 */
final class NormalisedTexts {

    /**
     * What an IdentityHashMap sizes for when told nothing. A call's memo is sized for its own texts instead (one
     * prompt, or its passages): a table for 21 texts per call was 5.5 % of what linking a run allocated (JFR of
     * RaglogBenchmarks.assembleRun, issue #27). A memo only sized for too few grows, as one sized by default would.
     */
    private static final int UNSIZED = 21;

    private final int expected;
    /** Null until a text is added: most calls (embeddings, rewrites) add none, and these live in a cache. */
    private Map<Object, String> byIdentity;

    NormalisedTexts() {
        this(UNSIZED);
    }

    /** @param expected how many texts it will likely hold */
    NormalisedTexts(int expected) {
        this.expected = expected;
    }

    String text(String text) {
        return memo().computeIfAbsent(text, t -> RecentNorms.norm((String) t));
    }

    String prompt(ChatDetail chat) {
        return memo().computeIfAbsent(chat, c -> Texts.norm(chat.promptParts(), ChatDetail.PROMPT_SEPARATOR));
    }

    /**
     * Adds another's texts, as putAll would, but without the entry putAll's iterator makes for each (1.8 % of what
     * linking a run allocated, JFR).
     */
    void addAll(NormalisedTexts other) {
        if (other.byIdentity != null) {
            other.byIdentity.forEach(memo()::put);
        }
    }

    /** How many texts it holds. */
    int size() {
        return byIdentity == null ? 0 : byIdentity.size();
    }

    private Map<Object, String> memo() {
        if (byIdentity == null) {
            byIdentity = new IdentityHashMap<>(expected);
        }
        return byIdentity;
    }
}

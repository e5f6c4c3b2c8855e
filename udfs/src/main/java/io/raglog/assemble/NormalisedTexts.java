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

    /** Null until a text is added: most calls (embeddings, rewrites) add none, and these live in a cache. */
    private Map<Object, String> byIdentity;

    String text(String text) {
        return memo().computeIfAbsent(text, t -> RecentNorms.norm((String) t));
    }

    String prompt(ChatDetail chat) {
        return memo().computeIfAbsent(chat, c -> Texts.norm(chat.promptParts(), ChatDetail.PROMPT_SEPARATOR));
    }

    void addAll(NormalisedTexts other) {
        if (other.byIdentity != null) {
            memo().putAll(other.byIdentity);
        }
    }

    private Map<Object, String> memo() {
        if (byIdentity == null) {
            byIdentity = new IdentityHashMap<>();
        }
        return byIdentity;
    }
}

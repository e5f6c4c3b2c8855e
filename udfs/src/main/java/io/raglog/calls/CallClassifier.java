package io.raglog.calls;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Stage;
import java.io.Serializable;
import java.util.List;

/**
 * Decides which stage each call belongs to with rules: the first adapter that accepts the endpoint reads it.
 * Adapter order matters where endpoints overlap (a vendor-specific path before a generic OpenAI-compatible one);
 * {@code calls.builtin.BuiltInAdapters.classifier()} is the one the job uses.
 */
public final class CallClassifier implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<ApiAdapter> adapters;

    public CallClassifier(List<ApiAdapter> adapters) {
        this.adapters = List.copyOf(adapters);
    }

    public Classification classify(CallEvent call) {
        for (ApiAdapter adapter : adapters) {
            if (!adapter.accepts(call)) {
                continue;
            }
            try {
                CallDetail detail = asRerank(adapter.read(call));
                return new Classification.Classified(new ClassifiedCall(call, stageOf(detail), detail));
            } catch (AdapterException e) {
                return new Classification.Unreadable(adapter.name() + ": " + e.getMessage());
            } catch (RuntimeException e) {
                // An adapter bug must not take the job down; the call is kept in the DLQ with the cause.
                return new Classification.Unreadable(adapter.name() + " failed: " + e);
            }
        }
        return new Classification.Unclassified("no adapter for " + call.request().method() + " " + describe(call));
    }

    /**
     * A chat model asked for a ranking is the rerank stage, whatever API carried it ({@link LlmRerankers}); read here,
     * once for every chat adapter. Its documents not found in the prompt, it stays a chat call of no stage.
     */
    private static CallDetail asRerank(CallDetail detail) {
        if (detail instanceof ChatDetail chat && chat.role() == ChatRole.RERANK) {
            RerankDetail rerank = LlmRerankers.read(chat);
            return rerank != null ? rerank : chat;
        }
        return detail;
    }

    static Stage stageOf(CallDetail detail) {
        if (detail instanceof ChatDetail chat) {
            return switch (chat.role()) {
                case REWRITE -> Stage.REWRITE;
                case GENERATE, GATE -> Stage.GENERATE;
                case RERANK, OTHER -> null; // a ranking whose documents were not found
            };
        }
        if (detail instanceof EmbedDetail) {
            return Stage.EMBED;
        }
        if (detail instanceof RetrieveDetail) {
            return Stage.RETRIEVE;
        }
        if (detail instanceof RerankDetail) {
            return Stage.RERANK;
        }
        return null; // NotARunCall
    }

    private static String describe(CallEvent call) {
        String url = call.request().url();
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }
}

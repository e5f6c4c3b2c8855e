package io.raglog.simulator.pipeline;

import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.WordPieces;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What goes wrong with the text a pipeline sends for embedding, by the mechanisms that really cause it: keyboard
 * slips at a varying rate, a token budget that cuts the text (inside a word if that is where it ends), a name, number
 * or date lost, and the pipeline's code embedding the wrong field (the question with its chat history, the rewrite
 * prompt). The texts returned are the whole text sent, the model family's prefix included.
 */
public final class EmbedFaults {

    /**
     * Client-side caps on what is embedded, in word pieces: an encoder's {@code max_seq_length} or a context size set
     * for the short queries a pipeline usually sends. A cap cuts the tail of a long text (a hypothetical answer, an
     * expansion, a question sent with its context) and leaves a short one whole: a cap of six pieces, which no
     * pipeline sets, would cut keyword queries the way no real client does, and tell its fault by what it cut.
     */
    static final int[] TOKEN_BUDGETS = {24, 32, 48, 64};
    /** Per content word, how likely a slip is: careless typists, OCR'd queries, a mobile keyboard. */
    static final double[] TYPO_RATES = {0.15, 0.3, 0.5};

    /** The question of the conversation, the exchange before it, and the rewrite prompt the pipeline filled in. */
    public record Fields(String question, String history, String rewritePrompt) {}

    /**
     * @param query the query as the pipeline meant to embed it (the rewrite, else the question)
     * @param prefix the model family's query prefix, sent before the query
     */
    public Injection<String> inject(String query, String prefix, Fields fields, SplittableRandom rng) {
        List<FaultType> options = new ArrayList<>(List.of(FaultType.EMBED_TYPO, FaultType.EMBED_WRONG_FIELD));
        Injection<String> truncated = truncate(query, prefix, rng);
        if (truncated != null) {
            options.add(FaultType.EMBED_TRUNCATED);
        }
        if (!KeyTerms.of(query).isEmpty() && Words.tokens(query).size() >= 2) {
            options.add(FaultType.EMBED_LOST_ENTITY);
        }
        switch (Rand.pick(rng, options)) {
            case EMBED_TRUNCATED:
                return truncated;
            case EMBED_LOST_ENTITY:
                return loseEntity(query, prefix, rng);
            case EMBED_WRONG_FIELD:
                return wrongField(prefix, fields, rng);
            default:
                return typos(query, prefix, rng);
        }
    }

    /** The pipeline's code embeds another field than the query: what the text sent then is. */
    public Injection<String> wrongField(String prefix, Fields fields, SplittableRandom rng) {
        boolean withHistory = fields.rewritePrompt() == null || rng.nextBoolean();
        if (withHistory) {
            // LangChain's condense-question template, sent as it was filled in instead of the standalone question.
            String text = "Chat History:\n" + fields.history() + "\nFollow Up Input: " + fields.question()
                    + "\nStandalone question:";
            return new Injection<>(prefix + text, new Fault(FaultType.EMBED_WRONG_FIELD,
                    "the pipeline embedded the question with its chat history instead of the search query"));
        }
        return new Injection<>(prefix + fields.rewritePrompt(), new Fault(FaultType.EMBED_WRONG_FIELD,
                "the pipeline embedded the rewrite prompt instead of the rewritten query"));
    }

    private static List<String> contentWords(String text) {
        List<String> out = new ArrayList<>();
        for (String token : Words.tokens(text)) {
            if (!Words.isStopword(token) && token.length() >= 4 && !token.chars().allMatch(Character::isDigit)) {
                out.add(token);
            }
        }
        return out;
    }

    private static Injection<String> typos(String query, String prefix, SplittableRandom rng) {
        List<String> candidates = new ArrayList<>(new java.util.LinkedHashSet<>(contentWords(query)));
        if (candidates.isEmpty()) {
            candidates = new ArrayList<>(new java.util.LinkedHashSet<>(Words.tokens(query)));
        }
        double rate = TYPO_RATES[rng.nextInt(TYPO_RATES.length)];
        List<String> hit = new ArrayList<>();
        for (String w : candidates) {
            if (rng.nextDouble() < rate) {
                hit.add(w);
            }
        }
        if (hit.isEmpty()) {
            hit.add(Rand.pick(rng, candidates));
        }
        String out = query;
        List<String> changes = new ArrayList<>();
        for (String w : hit) {
            String bad = TextEdits.typo(w, rng);
            if (rng.nextInt(4) == 0) {
                String twice = TextEdits.typo(bad, rng);
                if (!twice.equals(w)) {
                    bad = twice;
                }
            }
            out = TextEdits.replaceWord(out, w, bad);
            changes.add("\"" + w + "\" as \"" + bad + "\"");
        }
        return new Injection<>(prefix + out, new Fault(FaultType.EMBED_TYPO, String.format(Locale.ROOT,
                "the text sent for embedding misspelt %s (slips on %.0f%% of its words)", String.join(", ", changes),
                100.0 * hit.size() / candidates.size())));
    }

    /** A cap too small for the text, drawn among those that cut off at least one content word of the query. */
    private static Injection<String> truncate(String query, String prefix, SplittableRandom rng) {
        int prefixPieces = WordPieces.count(prefix);
        List<String> cuts = new ArrayList<>();
        List<Integer> budgets = new ArrayList<>();
        for (int budget : TOKEN_BUDGETS) {
            String cut = WordPieces.cut(prefix + query, budget);
            if (budget > prefixPieces && cut.length() > prefix.length() && !lostContent(query, cut).isEmpty()) {
                cuts.add(cut);
                budgets.add(budget);
            }
        }
        if (cuts.isEmpty()) {
            return null;
        }
        int k = rng.nextInt(cuts.size());
        String out = cuts.get(k);
        return new Injection<>(out, new Fault(FaultType.EMBED_TRUNCATED, "the text sent for embedding was cut at a "
                + budgets.get(k) + "-token budget, losing " + String.join(", ", lostContent(query, out))));
    }

    /** Content words of {@code query} not whole in {@code sent}. */
    static List<String> lostContent(String query, String sent) {
        List<String> out = new ArrayList<>();
        for (String w : contentWords(query)) {
            if (!TextEdits.containsWord(sent, w) && !out.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static Injection<String> loseEntity(String query, String prefix, SplittableRandom rng) {
        KeyTerms.Term term = Rand.pick(rng, KeyTerms.of(query));
        String out = TextEdits.removeWord(query, term.text());
        if (out.isBlank()) {
            return typos(query, prefix, rng);
        }
        return new Injection<>(prefix + out, new Fault(FaultType.EMBED_LOST_ENTITY, "the text sent for embedding lost"
                + " the " + term.kind().name().toLowerCase(Locale.ROOT) + " \"" + term.text() + "\""));
    }
}

package io.raglog.simulator.pipeline;

import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Faults in the text a pipeline sends for embedding (the RAGLog seed's embed-stage faults): words one or two edits
 * off, a truncated text, a lost name/number/date, unrelated words mixed in.
 */
public final class EmbedFaults {

    private final Vocabulary vocabulary;

    public EmbedFaults(Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
    }

    /** @param title the question's topic, so "unrelated" words really come from elsewhere */
    public Injection<String> inject(String text, String title, SplittableRandom rng) {
        List<FaultType> options = new ArrayList<>(List.of(FaultType.EMBED_TYPO, FaultType.EMBED_UNRELATED_WORDS));
        if (contentWords(text).size() >= 2) {
            options.add(FaultType.EMBED_TRUNCATED);
        }
        if (!KeyTerms.of(text).isEmpty() && Words.tokens(text).size() >= 2) {
            options.add(FaultType.EMBED_LOST_ENTITY);
        }
        FaultType type = Rand.pick(rng, options);
        switch (type) {
            case EMBED_TRUNCATED:
                return truncate(text, rng);
            case EMBED_LOST_ENTITY:
                return loseEntity(text, rng);
            case EMBED_UNRELATED_WORDS:
                return addUnrelated(text, title, rng);
            default:
                return typos(text, rng);
        }
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

    private Injection<String> typos(String text, SplittableRandom rng) {
        List<String> candidates = contentWords(text);
        if (candidates.isEmpty()) {
            candidates = Words.tokens(text);
        }
        int words = Math.min(candidates.size(), 1 + rng.nextInt(2));
        String out = text;
        List<String> changes = new ArrayList<>();
        List<String> pool = new ArrayList<>(candidates);
        for (int i = 0; i < words; i++) {
            String w = pool.remove(rng.nextInt(pool.size()));
            String bad = TextEdits.typo(w, rng);
            if (rng.nextInt(3) == 0) {
                String twice = TextEdits.typo(bad, rng);
                if (!twice.equals(w)) {
                    bad = twice;
                }
            }
            out = TextEdits.replaceWord(out, w, bad);
            changes.add("\"" + w + "\" as \"" + bad + "\"");
        }
        return new Injection<>(out, new Fault(FaultType.EMBED_TYPO,
                "the text sent for embedding misspelt " + String.join(" and ", changes)));
    }

    private Injection<String> truncate(String text, SplittableRandom rng) {
        List<String> tokens = Words.tokens(text);
        int keepTokens = Math.max(1, (int) Math.round(tokens.size() * (0.35 + 0.3 * rng.nextDouble())));
        keepTokens = Math.min(keepTokens, tokens.size() - 1);
        // Cut right after the last kept token, where a token budget would have cut.
        int at = 0;
        for (int i = 0; i < keepTokens; i++) {
            at = text.indexOf(tokens.get(i), at) + tokens.get(i).length();
        }
        String out = text.substring(0, at).strip();
        return new Injection<>(out, new Fault(FaultType.EMBED_TRUNCATED, "the text sent for embedding was cut to \""
                + out + "\", losing \"" + text.substring(at).strip() + "\""));
    }

    private Injection<String> loseEntity(String text, SplittableRandom rng) {
        KeyTerms.Term term = Rand.pick(rng, KeyTerms.of(text));
        String out = TextEdits.removeWord(text, term.text());
        if (out.isBlank()) {
            return typos(text, rng);
        }
        return new Injection<>(out, new Fault(FaultType.EMBED_LOST_ENTITY, "the text sent for embedding lost the "
                + term.kind().name().toLowerCase(java.util.Locale.ROOT) + " \"" + term.text() + "\""));
    }

    private Injection<String> addUnrelated(String text, String title, SplittableRandom rng) {
        List<String> extra = vocabulary.unrelatedWords(title, 2 + rng.nextInt(3), rng);
        String joined = String.join(" ", extra);
        String out = rng.nextBoolean() ? text + " " + joined : joined + " " + text;
        return new Injection<>(out, new Fault(FaultType.EMBED_UNRELATED_WORDS,
                "unrelated words were added to the text sent for embedding: \"" + joined + "\""));
    }
}

package io.raglog.simulator.pipeline;

import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The query rewriter: turns a question into a keyword search query as an instruction-tuned model does (question words
 * and fillers gone, a few words nominalised), now and then over-compressing; and its injected faults.
 */
public final class Rewriter {

    /** A natural over-compression: the rewrite loses one content word, which may be a name, number or date. */
    static final double NATURAL_SLIP = 0.04;

    private static final Map<String, String> NOMINALISED = Map.ofEntries(
            Map.entry("located", "location"), Map.entry("founded", "founding"), Map.entry("born", "birth"),
            Map.entry("died", "death"), Map.entry("called", "name"), Map.entry("named", "name"),
            Map.entry("built", "construction"), Map.entry("invented", "invention"), Map.entry("signed", "signing"),
            Map.entry("elected", "election"), Map.entry("established", "establishment"),
            Map.entry("discovered", "discovery"), Map.entry("used", "use"), Map.entry("began", "start"),
            Map.entry("ended", "end"), Map.entry("caused", "cause"), Map.entry("produced", "production"));

    private static final Map<String, String> OPPOSITES = Map.ofEntries(
            Map.entry("first", "last"), Map.entry("last", "first"), Map.entry("largest", "smallest"),
            Map.entry("smallest", "largest"), Map.entry("most", "least"), Map.entry("least", "most"),
            Map.entry("before", "after"), Map.entry("after", "before"), Map.entry("north", "south"),
            Map.entry("south", "north"), Map.entry("east", "west"), Map.entry("west", "east"),
            Map.entry("highest", "lowest"), Map.entry("lowest", "highest"), Map.entry("earliest", "latest"),
            Map.entry("latest", "earliest"), Map.entry("increase", "decrease"), Map.entry("decrease", "increase"),
            Map.entry("won", "lost"), Map.entry("lost", "won"), Map.entry("maximum", "minimum"),
            Map.entry("minimum", "maximum"), Map.entry("longest", "shortest"), Map.entry("shortest", "longest"),
            Map.entry("oldest", "youngest"), Map.entry("youngest", "oldest"), Map.entry("more", "fewer"),
            Map.entry("early", "late"), Map.entry("late", "early"), Map.entry("major", "minor"),
            Map.entry("upper", "lower"), Map.entry("lower", "upper"), Map.entry("public", "private"),
            Map.entry("private", "public"), Map.entry("start", "end"), Map.entry("beginning", "end"),
            Map.entry("best", "worst"), Map.entry("main", "minor"), Map.entry("greatest", "least"));

    private final Vocabulary vocabulary;

    public Rewriter(Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
    }

    /** The rewrite a sound rewriter gives; on rare occasions it drops one content word (a natural fault or not). */
    public String rewrite(String question, SplittableRandom rng) {
        List<String> kept = new ArrayList<>();
        for (String token : Words.tokens(question)) {
            if (Words.isStopword(token) && KeyTerms.kindOf(token) == null) {
                continue;
            }
            String lower = Words.lower(token);
            kept.add(NOMINALISED.containsKey(lower) && rng.nextDouble() < 0.5 ? NOMINALISED.get(lower) : token);
        }
        if (kept.isEmpty()) {
            return question.strip();
        }
        if (kept.size() > 2 && Rand.chance(rng, NATURAL_SLIP)) {
            kept.remove(rng.nextInt(kept.size()));
        }
        return String.join(" ", kept);
    }

    /** Injects a rewrite fault into a sound rewrite; null when none applies to this question. */
    public Injection<String> inject(String rewrite, SplittableRandom rng) {
        List<FaultType> options = new ArrayList<>();
        for (KeyTerms.Term term : KeyTerms.of(rewrite)) {
            FaultType type = dropFault(term.kind());
            if (!options.contains(type)) {
                options.add(type);
            }
        }
        options.add(FaultType.REWRITE_CHANGED_MEANING);
        FaultType type = Rand.pick(rng, options);
        if (type == FaultType.REWRITE_CHANGED_MEANING) {
            return changeMeaning(rewrite, rng);
        }
        List<KeyTerms.Term> candidates = new ArrayList<>();
        for (KeyTerms.Term term : KeyTerms.of(rewrite)) {
            if (dropFault(term.kind()) == type) {
                candidates.add(term);
            }
        }
        KeyTerms.Term dropped = Rand.pick(rng, candidates);
        String out = TextEdits.removeWord(rewrite, dropped.text());
        if (out.isBlank() || out.equals(rewrite)) {
            return changeMeaning(rewrite, rng);
        }
        String kind = dropped.kind().name().toLowerCase(Locale.ROOT);
        return new Injection<>(out, new Fault(type, "the rewrite dropped the " + kind + " \"" + dropped.text()
                + "\" of the question"));
    }

    private Injection<String> changeMeaning(String rewrite, SplittableRandom rng) {
        List<String> tokens = Words.tokens(rewrite);
        for (String token : tokens) {
            String opposite = OPPOSITES.get(Words.lower(token));
            if (opposite != null) {
                return changed(rewrite, token, opposite);
            }
        }
        List<String> names = new ArrayList<>();
        List<String> content = new ArrayList<>();
        for (String token : tokens) {
            if (KeyTerms.kindOf(token) == KeyTerms.Kind.NAME) {
                names.add(token);
            } else if (!Words.isStopword(token) && token.length() > 3) {
                content.add(token);
            }
        }
        if (!names.isEmpty()) {
            String from = Rand.pick(rng, names);
            return changed(rewrite, from, vocabulary.otherName(from, rng));
        }
        String from = content.isEmpty() ? tokens.get(tokens.size() - 1) : Rand.pick(rng, content);
        return changed(rewrite, from, vocabulary.otherWord(from, rng));
    }

    private static Injection<String> changed(String rewrite, String from, String to) {
        return new Injection<>(TextEdits.replaceWord(rewrite, from, to), new Fault(FaultType.REWRITE_CHANGED_MEANING,
                "the rewrite changed the meaning: \"" + from + "\" became \"" + to + "\""));
    }

    private static FaultType dropFault(KeyTerms.Kind kind) {
        switch (kind) {
            case NAME:
                return FaultType.REWRITE_DROPPED_NAME;
            case NUMBER:
                return FaultType.REWRITE_DROPPED_NUMBER;
            default:
                return FaultType.REWRITE_DROPPED_DATE;
        }
    }
}

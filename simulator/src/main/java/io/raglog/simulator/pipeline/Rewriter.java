package io.raglog.simulator.pipeline;

import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

    /** Common question words and what a rewriter may say instead (expansion adds them, a paraphrase swaps one in). */
    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("year", List.of("date", "time")), Map.entry("country", List.of("nation", "state")),
            Map.entry("city", List.of("town", "municipality")), Map.entry("largest", List.of("biggest")),
            Map.entry("biggest", List.of("largest")), Map.entry("people", List.of("population", "persons")),
            Map.entry("type", List.of("kind", "category")), Map.entry("kind", List.of("type")),
            Map.entry("built", List.of("constructed", "erected")), Map.entry("founded", List.of("established")),
            Map.entry("died", List.of("death", "passed away")), Map.entry("born", List.of("birth", "birthplace")),
            Map.entry("located", List.of("situated", "location")), Map.entry("called", List.of("named", "known as")),
            Map.entry("named", List.of("called")), Map.entry("name", List.of("title", "designation")),
            Map.entry("many", List.of("number", "count")), Map.entry("much", List.of("amount", "quantity")),
            Map.entry("began", List.of("started", "start")), Map.entry("start", List.of("beginning", "begin")),
            Map.entry("ended", List.of("finished", "end")), Map.entry("used", List.of("employed", "utilised")),
            Map.entry("use", List.of("usage", "application")), Map.entry("main", List.of("primary", "principal")),
            Map.entry("important", List.of("significant", "notable")), Map.entry("made", List.of("created", "produced")),
            Map.entry("group", List.of("organisation", "body")), Map.entry("leader", List.of("head", "chief")),
            Map.entry("war", List.of("conflict")), Map.entry("law", List.of("legislation", "act")),
            Map.entry("company", List.of("firm", "business")), Map.entry("government", List.of("administration")),
            Map.entry("area", List.of("region", "territory")), Map.entry("region", List.of("area")),
            Map.entry("percentage", List.of("share", "proportion")), Map.entry("percent", List.of("share")),
            Map.entry("cost", List.of("price", "expense")), Map.entry("caused", List.of("led to", "reason")),
            Map.entry("cause", List.of("reason", "origin")), Map.entry("first", List.of("earliest", "initial")),
            Map.entry("last", List.of("final", "latest")), Map.entry("time", List.of("period", "era")),
            Map.entry("team", List.of("club", "side")), Map.entry("school", List.of("institution", "college")),
            Map.entry("river", List.of("waterway")), Map.entry("language", List.of("tongue")),
            Map.entry("religion", List.of("faith", "belief")), Map.entry("building", List.of("structure")),
            Map.entry("won", List.of("victory", "winner")), Map.entry("discovered", List.of("found", "discovery")),
            Map.entry("invented", List.of("created", "invention")), Map.entry("size", List.of("extent", "dimensions")));

    /** Words whose listed alternatives are related terms for an expansion, not drop-in synonyms in a sentence. */
    private static final Set<String> KEEP_IN_PARAPHRASE = Set.of("many", "much", "name", "named",
            "called", "use", "used", "start", "last", "first", "cause", "caused", "won", "died", "born", "located",
            "percent", "time", "invented", "discovered");

    /** Question openings a restatement says differently; each keeps what is asked. */
    private static final Map<String, List<String>> OPENINGS = Map.of(
            "when", List.of("In what year", "At what time", "During which period"),
            "where", List.of("In what place", "At which location"),
            "who", List.of("Which person", "Who exactly"),
            "what", List.of("Which", "What exactly"),
            "which", List.of("What"),
            "how many", List.of("What number of", "How large a number of"),
            "how much", List.of("What amount of", "What quantity of"),
            "why", List.of("For what reason", "What is the reason"));

    /** What a hypothetical answer (HyDE) says in place of the unknown it was asked for. */
    private static final Map<String, List<String>> HYPOTHETICAL_SLOT = Map.of(
            "when", List.of("at a particular point in its history", "during the period in question",
                    "in a specific year recorded by historians"),
            "where", List.of("in a particular place", "at a location described in the sources"),
            "who", List.of("a notable person", "a figure known from the record"),
            "how many", List.of("a specific number", "a figure reported in the sources"),
            "how much", List.of("a specific amount", "a reported quantity"),
            "why", List.of("for several reasons", "because of the circumstances of the time"),
            "what", List.of("something specific", "a particular thing described in the sources"),
            "which", List.of("one in particular", "a specific one"));

    private static final List<String> HEDGED_OPENERS = List.of("", "", "It is known that ", "According to the record, ",
            "Sources say ");

    /**
     * The rewrite a sound rewriter of this style gives; on rare occasions it drops one content word (a natural fault
     * or not, as the label decides from the question's key terms).
     *
     * @param background a sentence on the question's subject the model may know (HyDE writes around it), or null
     */
    public String rewrite(String question, RewriteStyle style, String background, SplittableRandom rng) {
        switch (style) {
            case PARAPHRASE:
                return slip(paraphrase(question, rng), rng);
            case EXPANSION:
                return expansion(keywords(question, rng), rng);
            case HYDE:
                return hypothetical(question, background, rng);
            default:
                return keywords(question, rng);
        }
    }

    private static String keywords(String question, SplittableRandom rng) {
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

    /** A natural over-compression of a fluent rewrite: one word lost. */
    private static String slip(String text, SplittableRandom rng) {
        List<String> tokens = Words.tokens(text);
        if (tokens.size() > 3 && Rand.chance(rng, NATURAL_SLIP)) {
            return TextEdits.removeWord(text, tokens.get(1 + rng.nextInt(tokens.size() - 1)));
        }
        return text;
    }

    /** A fluent restatement: another opening, a synonym or two, sometimes an imperative. */
    private static String paraphrase(String question, SplittableRandom rng) {
        String q = question.strip();
        String lower = Words.lower(q);
        String out = q;
        boolean reopened = false;
        for (Map.Entry<String, List<String>> e : new java.util.TreeMap<>(OPENINGS).descendingMap().entrySet()) {
            if (lower.startsWith(e.getKey() + " ") && rng.nextDouble() < 0.7) {
                out = Rand.pick(rng, e.getValue()) + q.substring(e.getKey().length());
                reopened = true;
                break;
            }
        }
        List<String> tokens = Words.tokens(out);
        for (String token : tokens.subList(Math.min(1, tokens.size()), tokens.size())) {
            List<String> alternatives = SYNONYMS.get(Words.lower(token));
            if (alternatives != null && KeyTerms.kindOf(token) == null && !KEEP_IN_PARAPHRASE.contains(Words.lower(token))
                    && rng.nextDouble() < 0.35) {
                out = TextEdits.replaceWord(out, token, Rand.pick(rng, alternatives));
            }
        }
        // An imperative only reads right before a wh-clause: "Find out when …", "Look up which …".
        boolean whClause = Words.tokens(lower).stream().findFirst()
                .filter(w -> List.of("what", "which", "who", "when", "where", "how", "why").contains(w)).isPresent();
        if (whClause && !reopened && rng.nextDouble() < 0.35) {
            String body = out.endsWith("?") ? out.substring(0, out.length() - 1) : out;
            out = Rand.pick(rng, List.of("Find out ", "Look up ", "Tell me ")) + Character.toLowerCase(body.charAt(0))
                    + body.substring(1);
        }
        return out;
    }

    /** The keyword query with synonyms and related terms added, as query-expansion prompts ask for. */
    private static String expansion(String keywords, SplittableRandom rng) {
        List<String> extra = new ArrayList<>();
        for (String token : Words.tokens(keywords)) {
            List<String> alternatives = SYNONYMS.get(Words.lower(token));
            if (alternatives != null) {
                for (String a : alternatives) {
                    if (!extra.contains(a) && !TextEdits.containsWord(keywords, a) && rng.nextDouble() < 0.7) {
                        extra.add(a);
                    }
                }
            }
            String nominal = NOMINALISED.get(Words.lower(token));
            if (nominal != null && !extra.contains(nominal) && !TextEdits.containsWord(keywords, nominal)) {
                extra.add(nominal);
            }
        }
        if (extra.isEmpty()) {
            return keywords;
        }
        return rng.nextBoolean() ? keywords + " " + String.join(" ", extra)
                : keywords + " (" + String.join(" OR ", extra) + ")";
    }

    /**
     * A hypothetical answer passage (HyDE): the question turned into a statement with a vague stand-in for the
     * unknown, then, when the model knows something of the subject, a sentence of background.
     */
    private static String hypothetical(String question, String background, SplittableRandom rng) {
        String q = question.strip();
        if (q.endsWith("?")) {
            q = q.substring(0, q.length() - 1);
        }
        String lower = Words.lower(q);
        String wh = null;
        for (String key : List.of("how many", "how much", "when", "where", "who", "why", "which", "what")) {
            if (lower.startsWith(key + " ")) {
                wh = key;
                break;
            }
        }
        String statement;
        if (wh == null) {
            statement = q;
        } else {
            String rest = q.substring(wh.length()).strip();
            List<String> restTokens = List.of(rest.split("\\s+"));
            String first = restTokens.isEmpty() ? "" : Words.lower(restTokens.get(0));
            String slot = Rand.pick(rng, HYPOTHETICAL_SLOT.get(wh));
            if (List.of("did", "does", "do").contains(first)) {
                rest = String.join(" ", restTokens.subList(1, restTokens.size())) + " " + slot;
            } else if (List.of("is", "was", "are", "were").contains(first) && restTokens.size() > 1) {
                // "What is the capital of X" -> "The capital of X is something specific"
                rest = String.join(" ", restTokens.subList(1, restTokens.size())) + " " + first + " " + slot;
            } else {
                rest = slot + " " + rest;
            }
            statement = rest;
        }
        String opener = Rand.pick(rng, HEDGED_OPENERS);
        if (opener.isEmpty()) {
            statement = Character.toUpperCase(statement.charAt(0)) + statement.substring(1);
        }
        String out = opener + statement + ".";
        if (background != null && rng.nextDouble() < 0.6) {
            out = out + " " + background;
        }
        // A hypothetical answer must still carry the question's names, numbers and dates.
        for (KeyTerms.Term t : KeyTerms.lost(question, out)) {
            out = out + " " + t.text();
        }
        return out;
    }

    /** Injects a rewrite fault into a sound rewrite; null when none applies to this question. */
    public Injection<String> inject(String question, String rewrite, SplittableRandom rng) {
        List<FaultType> options = new ArrayList<>();
        for (KeyTerms.Term term : questionTerms(question, rewrite)) {
            FaultType type = dropFault(term.kind());
            if (!options.contains(type)) {
                options.add(type);
            }
        }
        options.add(FaultType.REWRITE_CHANGED_MEANING);
        FaultType type = Rand.pick(rng, options);
        if (type == FaultType.REWRITE_CHANGED_MEANING) {
            return changeMeaning(question, rewrite, rng);
        }
        List<KeyTerms.Term> candidates = new ArrayList<>();
        for (KeyTerms.Term term : questionTerms(question, rewrite)) {
            if (dropFault(term.kind()) == type) {
                candidates.add(term);
            }
        }
        KeyTerms.Term dropped = Rand.pick(rng, candidates);
        String out = TextEdits.removeWord(rewrite, dropped.text());
        if (out.isBlank() || out.equals(rewrite)) {
            return changeMeaning(question, rewrite, rng);
        }
        String kind = dropped.kind().name().toLowerCase(Locale.ROOT);
        return new Injection<>(out, new Fault(type, "the rewrite dropped the " + kind + " \"" + dropped.text()
                + "\" of the question"));
    }

    /**
     * The question's key terms the rewrite carries: only those can be dropped so that the question loses them (a HyDE
     * background sentence has names of its own).
     */
    private static List<KeyTerms.Term> questionTerms(String question, String rewrite) {
        List<KeyTerms.Term> out = new ArrayList<>();
        List<KeyTerms.Term> lost = KeyTerms.lost(question, rewrite);
        for (KeyTerms.Term t : KeyTerms.of(question)) {
            if (!lost.contains(t)) {
                for (KeyTerms.Term r : KeyTerms.of(rewrite)) {
                    if (r.text().equalsIgnoreCase(t.text()) && !out.contains(r)) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    /**
     * A word the question asked with, carried into the rewrite, replaced by its opposite or by another name or word of
     * the corpus: the rewriter misread the question. Only the question's own words are candidates. A HyDE rewrite's
     * opener ("Sources say"), its stand-in for the unknown ("something specific") and its background sentence are the
     * rewriter's own words; swapping one of them leaves what the question asks as it was, and labeling that a change
     * of meaning taught the models a fault that no reader of the question could see.
     */
    private Injection<String> changeMeaning(String question, String rewrite, SplittableRandom rng) {
        Set<String> asked = new HashSet<>();
        for (String token : Words.tokens(question)) {
            asked.add(Words.lower(token));
        }
        List<String> tokens = new ArrayList<>();
        for (String token : Words.tokens(rewrite)) {
            if (asked.contains(Words.lower(token))) {
                tokens.add(token);
            }
        }
        if (tokens.isEmpty()) {
            // a rewrite that carries none of the question's words has lost it already; change what it says instead
            tokens = Words.tokens(rewrite);
        }
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

package io.raglog.simulator.session;

import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.TextEdits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a user asks again a question whose answer did not satisfy them: not a template but a few of the edits people
 * make, drawn at random each time — another opening, a synonym, a word dropped or added, clauses in another order, a
 * shorter form, a typo, sometimes an "I mean" in front, sometimes typed in lower case without the question mark.
 * Nothing marks a re-ask as such: each edit also appears in first questions people type, and a detector that keyed
 * on any one of them would miss most re-asks.
 */
public final class UserParaphraser {

    /** Openings people swap for one another; every alternative asks for the same thing. */
    private static final Map<String, List<String>> OPENINGS = Map.ofEntries(
            Map.entry("what year", List.of("when", "in which year", "what year exactly")),
            Map.entry("in what year", List.of("when", "what year")),
            Map.entry("when", List.of("what year", "at what point", "around when")),
            Map.entry("where", List.of("in what place", "whereabouts")),
            Map.entry("who", List.of("which person", "who exactly")),
            Map.entry("how many", List.of("what number of", "how many total")),
            Map.entry("how much", List.of("what amount of", "how much in total")),
            Map.entry("what is", List.of("what's", "whats")),
            Map.entry("what was", List.of("what's", "which was")),
            Map.entry("what", List.of("which", "what exactly")),
            Map.entry("which", List.of("what")),
            Map.entry("why", List.of("for what reason", "how come")));

    /** Everyday synonyms; a user reaches for another word, not for the corpus's term. */
    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("largest", List.of("biggest")), Map.entry("biggest", List.of("largest")),
            Map.entry("big", List.of("large")), Map.entry("large", List.of("big")),
            Map.entry("small", List.of("little")), Map.entry("country", List.of("nation")),
            Map.entry("city", List.of("town")), Map.entry("people", List.of("persons", "folks")),
            Map.entry("type", List.of("kind", "sort")), Map.entry("kind", List.of("type", "sort")),
            Map.entry("built", List.of("constructed", "erected")), Map.entry("founded", List.of("established",
                    "set up")), Map.entry("died", List.of("passed away")), Map.entry("began", List.of("started")),
            Map.entry("begin", List.of("start")), Map.entry("start", List.of("begin")),
            Map.entry("started", List.of("began", "kicked off")), Map.entry("ended", List.of("finished")),
            Map.entry("end", List.of("finish")), Map.entry("used", List.of("employed", "utilized")),
            Map.entry("use", List.of("employ", "utilize")), Map.entry("main", List.of("primary", "principal")),
            Map.entry("important", List.of("significant", "major")), Map.entry("made", List.of("created")),
            Map.entry("create", List.of("make")), Map.entry("leader", List.of("head", "chief")),
            Map.entry("war", List.of("conflict")), Map.entry("company", List.of("firm", "business")),
            Map.entry("area", List.of("region")), Map.entry("region", List.of("area")),
            Map.entry("first", List.of("earliest", "initial")), Map.entry("last", List.of("final")),
            Map.entry("called", List.of("named", "known as")), Map.entry("named", List.of("called")),
            Map.entry("famous", List.of("well-known", "renowned")), Map.entry("old", List.of("ancient")),
            Map.entry("get", List.of("obtain", "receive")), Map.entry("got", List.of("received", "obtained")),
            Map.entry("give", List.of("provide")), Map.entry("gave", List.of("provided")),
            Map.entry("show", List.of("demonstrate")), Map.entry("help", List.of("assist")),
            Map.entry("think", List.of("believe")), Map.entry("many", List.of("numerous")),
            Map.entry("often", List.of("frequently")), Map.entry("about", List.of("regarding", "concerning")),
            Map.entry("increase", List.of("rise", "growth")), Map.entry("decrease", List.of("drop", "decline")),
            Map.entry("allowed", List.of("permitted")), Map.entry("buy", List.of("purchase")),
            Map.entry("bought", List.of("purchased")), Map.entry("need", List.of("require")),
            Map.entry("needed", List.of("required")), Map.entry("happen", List.of("occur", "take place")),
            Map.entry("happened", List.of("occurred", "took place")), Map.entry("caused", List.of("led to")),
            Map.entry("reason", List.of("cause")), Map.entry("group", List.of("organization")),
            Map.entry("rule", List.of("govern")), Map.entry("ruled", List.of("governed", "reigned over")),
            Map.entry("fight", List.of("battle")), Map.entry("fought", List.of("battled")),
            Map.entry("study", List.of("research")), Map.entry("job", List.of("role", "position")),
            Map.entry("result", List.of("outcome")), Map.entry("idea", List.of("notion", "concept")),
            Map.entry("law", List.of("legislation")), Map.entry("wrote", List.of("authored", "penned")),
            Map.entry("teach", List.of("instruct")), Map.entry("building", List.of("structure")),
            Map.entry("number", List.of("count", "amount")), Map.entry("percentage", List.of("share", "percent")),
            Map.entry("located", List.of("situated")), Map.entry("live", List.of("reside")),
            Map.entry("lived", List.of("resided")), Map.entry("part", List.of("portion", "section")),
            Map.entry("known", List.of("recognized")), Map.entry("considered", List.of("regarded as", "seen as")),
            Map.entry("during", List.of("in", "throughout")), Map.entry("before", List.of("prior to")),
            Map.entry("after", List.of("following")), Map.entry("among", List.of("amongst")),
            Map.entry("term", List.of("word", "expression")), Map.entry("purpose", List.of("aim", "goal")),
            Map.entry("responsible", List.of("accountable")), Map.entry("contain", List.of("hold", "include")),
            Map.entry("contains", List.of("holds", "includes")), Map.entry("develop", List.of("come up with")),
            Map.entry("developed", List.of("came up with", "devised")), Map.entry("produce", List.of("generate")),
            Map.entry("produced", List.of("generated", "made")), Map.entry("require", List.of("need")),
            Map.entry("required", List.of("needed")), Map.entry("role", List.of("function", "part")),
            Map.entry("method", List.of("way", "approach")), Map.entry("process", List.of("procedure")),
            Map.entry("effect", List.of("impact", "consequence")), Map.entry("influence", List.of("affect", "shape")),
            Map.entry("major", List.of("big", "key")), Map.entry("common", List.of("usual", "widespread")),
            Map.entry("modern", List.of("contemporary", "present-day")), Map.entry("early", List.of("initial")),
            Map.entry("members", List.of("participants")), Map.entry("member", List.of("participant")),
            Map.entry("received", List.of("got", "was given")), Map.entry("refer", List.of("point")),
            Map.entry("describe", List.of("characterize")), Map.entry("described", List.of("characterized")),
            Map.entry("type of", List.of("kind of")), Map.entry("able", List.of("capable")),
            Map.entry("population", List.of("number of inhabitants", "headcount")),
            Map.entry("century", List.of("100 years")), Map.entry("problem", List.of("issue")),
            Map.entry("problems", List.of("issues")), Map.entry("university", List.of("college", "school")),
            Map.entry("students", List.of("pupils")), Map.entry("church", List.of("congregation")),
            Map.entry("king", List.of("monarch", "ruler")), Map.entry("army", List.of("troops", "military")),
            Map.entry("power", List.of("authority", "control")), Map.entry("states", List.of("countries")),
            Map.entry("court", List.of("tribunal")), Map.entry("opened", List.of("launched")),
            Map.entry("total", List.of("overall")));

    /** What people put in front of a question they ask again; said now and then, never always. */
    private static final List<String> LEAD_INS = List.of("I mean, ", "I meant ", "sorry, ", "no, ", "ok but ",
            "let me rephrase: ", "what I'm asking is ", "wait, ", "hmm, ", "actually, ", "again: ", "ok so ",
            "can you tell me ", "do you know ", "I asked ", "just tell me ");

    /** Words people add for emphasis, where they put them; none changes what is asked. */
    private static final List<String> AFTER_WH = List.of("exactly", "actually", "precisely", "specifically");
    private static final List<String> AT_END = List.of("exactly", "again", "then", "originally", "precisely",
            "specifically", "in the end", "though");
    private static final Set<String> WH_WORDS = Set.of("what", "which", "who", "whom", "when", "where", "why", "how");

    private static final Set<String> DROPPABLE = Set.of("the", "a", "an", "of", "did", "does", "was", "were", "is",
            "are",
            "that", "its", "their", "which");

    private static final Set<String> PARTICIPLES = Set.of("built", "born", "made", "known", "given", "written",
            "held", "found", "won", "done", "taken", "seen", "led", "sold", "paid", "lost", "shown", "begun", "run");

    /** "When was the engine built?" → "the engine was built when?": the question word moved to the end. */
    private static final Pattern WH_FRONTED = Pattern.compile(
            "^(when|where|who|what|why|how many|how much|how|which)( \\w+)? "
                    + "(was|were|is|are|did|does|do|has|have) (.+?)\\??$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TRAILING_PHRASE = Pattern.compile(
            "^(.+?) ((?:in|during|after|before|at|on|by|for|under|since|from) [^,?]{3,40})\\??$",
            Pattern.CASE_INSENSITIVE);
    /** Two or more capitalised words in a row, "of"/"the" allowed between them: a name long enough to shorten. */
    private static final Pattern LONG_NAME = Pattern.compile(
            "\\p{Lu}[\\p{L}'-]+(?: (?:of |the |of the |and )?\\p{Lu}[\\p{L}'-]+)+");
    private static final Pattern CAPITALISED = Pattern.compile("\\b\\p{Lu}[\\p{L}\\p{N}'-]*\\b|\\b\\d[\\d,.]*\\b");

    private UserParaphraser() {}

    /** Another way of asking {@code question}: one to three edits, drawn anew each time, and never the same text. */
    public static String rephrase(String question, SplittableRandom rng) {
        String text = question.strip();
        for (int attempt = 0; attempt < 6; attempt++) {
            String out = edits(text, rng);
            if (!normalised(out).equals(normalised(text)) && !out.isBlank()) {
                return out;
            }
        }
        return typoSomewhere(text, rng);
    }

    private static String edits(String question, SplittableRandom rng) {
        String out = question;
        boolean shortened = false;
        if (Rand.chance(rng, 0.22)) {
            out = shortForm(out, rng);
            shortened = true;
        } else {
            List<Integer> order = shuffled(7, rng);
            int edits = 1 + rng.nextInt(4);
            for (int k = 0; k < edits; k++) {
                out = switch (order.get(k)) {
                    case 0 -> reopen(out, rng);
                    case 1 -> synonyms(out, rng);
                    case 2 -> reorder(out, rng);
                    case 3 -> dropWord(out, rng);
                    case 4 -> dropTrailingPhrase(out);
                    case 5 -> shortenName(out, rng);
                    default -> addFiller(out, rng);
                };
            }
        }
        if (Rand.chance(rng, 0.3)) {
            out = typoSomewhere(out, rng);
        }
        if (!shortened && Rand.chance(rng, 0.22)) {
            out = Rand.pick(rng, LEAD_INS) + lowerFirst(out);
        }
        if (Rand.chance(rng, 0.25)) {
            // typed fast: no capitals, no question mark
            out = out.toLowerCase(Locale.ROOT).replaceAll("\\?$", "");
        }
        return out.replaceAll("\\s+", " ").strip();
    }

    private static String reopen(String q, SplittableRandom rng) {
        String lower = q.toLowerCase(Locale.ROOT);
        String best = null;
        for (String opening : OPENINGS.keySet()) {
            if (lower.startsWith(opening + " ") && (best == null || opening.length() > best.length())) {
                best = opening;
            }
        }
        if (best == null) {
            return q;
        }
        return capitalise(Rand.pick(rng, OPENINGS.get(best))) + q.substring(best.length());
    }

    private static String synonyms(String q, SplittableRandom rng) {
        String out = q;
        List<String> words = words(q);
        boolean swapped = false;
        for (String w : words.subList(Math.min(1, words.size()), words.size())) {
            List<String> alternatives = SYNONYMS.get(w.toLowerCase(Locale.ROOT));
            if (alternatives != null && Rand.chance(rng, swapped ? 0.5 : 0.8)) {
                out = TextEdits.replaceWord(out, w, Rand.pick(rng, alternatives));
                swapped = true;
            }
        }
        return out;
    }

    private static String reorder(String q, SplittableRandom rng) {
        Matcher wh = WH_FRONTED.matcher(q.strip());
        if (wh.matches() && Rand.chance(rng, 0.5)) {
            String rest = wh.group(4);
            String noun = wh.group(2) == null ? "" : wh.group(2);
            String whPart = (wh.group(1) + noun).toLowerCase(Locale.ROOT);
            // "did/does" questions keep their verb: "the Normans conquered England when?" reads oddly; add the aux
            String aux = wh.group(3).toLowerCase(Locale.ROOT);
            String statement = aux.startsWith("d") ? rest : subjectThenAux(rest, aux);
            return capitalise(statement + " " + whPart + "?");
        }
        Matcher trailing = TRAILING_PHRASE.matcher(q.strip());
        if (trailing.matches()) {
            return capitalise(trailing.group(2)) + ", " + lowerFirst(trailing.group(1)) + "?";
        }
        int comma = q.indexOf(", ");
        if (comma > 0) {
            String head = q.substring(0, comma);
            String tail = q.substring(comma + 2).replaceAll("\\?$", "");
            return capitalise(tail) + ", " + lowerFirst(head) + "?";
        }
        return q;
    }

    /**
     * "the engine built" + "was" → "the engine was built" when the clause ends in a participle; else "the capital of
     * Poland" + "is" → "the capital of Poland is".
     */
    private static String subjectThenAux(String rest, String aux) {
        List<String> words = List.of(rest.split(" "));
        String last = words.get(words.size() - 1).toLowerCase(Locale.ROOT);
        boolean participle = words.size() > 1 && (last.endsWith("ed") || PARTICIPLES.contains(last));
        if (!participle) {
            return rest + " " + aux;
        }
        return String.join(" ", words.subList(0, words.size() - 1)) + " " + aux + " " + words.get(words.size() - 1);
    }

    /** "… built in England in the 1700s?" → "… built in England?": the user leaves out the detail they added first. */
    private static String dropTrailingPhrase(String q) {
        Matcher trailing = TRAILING_PHRASE.matcher(q.strip());
        if (!trailing.matches() || trailing.group(1).split(" ").length < 3) {
            return q;
        }
        return trailing.group(1) + (q.strip().endsWith("?") ? "?" : "");
    }

    /** "the Court of Justice of the European Union" → "the Court": a long name said the short way, as people do. */
    private static String shortenName(String q, SplittableRandom rng) {
        Matcher m = LONG_NAME.matcher(q);
        List<String> names = new ArrayList<>();
        while (m.find()) {
            if (m.start() > 0) {
                names.add(m.group());
            }
        }
        if (names.isEmpty()) {
            return q;
        }
        String name = Rand.pick(rng, names);
        String[] parts = name.split(" ");
        String shorter = Rand.chance(rng, 0.5) ? parts[0] : parts[parts.length - 1];
        return q.replace(name, shorter);
    }

    private static String dropWord(String q, SplittableRandom rng) {
        List<String> words = new ArrayList<>(List.of(q.split(" ")));
        List<Integer> candidates = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            if (DROPPABLE.contains(words.get(i).toLowerCase(Locale.ROOT))) {
                candidates.add(i);
            }
        }
        if (candidates.isEmpty()) {
            return q;
        }
        words.remove((int) Rand.pick(rng, candidates));
        return String.join(" ", words);
    }

    /** "What exactly did …", "… built again?": where people put such words, after the question word or at the end. */
    private static String addFiller(String q, SplittableRandom rng) {
        List<String> words = new ArrayList<>(List.of(q.replaceAll("\\?$", "").split(" ")));
        boolean whFirst = !words.isEmpty() && WH_WORDS.contains(words.get(0).toLowerCase(Locale.ROOT));
        if (whFirst && words.size() > 2 && Rand.chance(rng, 0.5)) {
            words.add(1, Rand.pick(rng, AFTER_WH));
        } else {
            words.add(Rand.pick(rng, AT_END));
        }
        return String.join(" ", words) + (q.endsWith("?") ? "?" : "");
    }

    /** The names, numbers and a few other words of the question, as typed into a search box. */
    private static String shortForm(String q, SplittableRandom rng) {
        List<String> kept = new ArrayList<>();
        Matcher m = CAPITALISED.matcher(q);
        boolean first = true;
        while (m.find()) {
            if (first && m.start() == 0) {
                first = false;
                continue; // the sentence's first word is capitalised for grammar, not because it is a name
            }
            first = false;
            kept.add(m.group());
        }
        List<String> words = words(q);
        List<String> others = new ArrayList<>();
        for (String w : words.subList(Math.min(1, words.size()), words.size())) {
            if (w.length() > 3 && !DROPPABLE.contains(w.toLowerCase(Locale.ROOT)) && !kept.contains(w)) {
                others.add(w);
            }
        }
        int keep = Math.max(1, (int) Math.ceil(others.size() * (0.4 + 0.5 * rng.nextDouble())));
        List<String> out = new ArrayList<>(kept);
        for (String w : others) {
            if (keep-- <= 0) {
                break;
            }
            out.add(w.toLowerCase(Locale.ROOT));
        }
        if (out.size() < 2) {
            return q;
        }
        if (Rand.chance(rng, 0.5)) {
            out.add(0, words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT));
        }
        return String.join(" ", out).strip() + (Rand.chance(rng, 0.5) ? "?" : "");
    }

    private static String typoSomewhere(String q, SplittableRandom rng) {
        List<String> long_ = new ArrayList<>();
        for (String w : words(q)) {
            if (w.length() >= 5) {
                long_.add(w);
            }
        }
        if (long_.isEmpty()) {
            return q + "?";
        }
        String w = Rand.pick(rng, long_);
        return TextEdits.replaceWord(q, w, TextEdits.typo(w, rng));
    }

    private static List<String> words(String q) {
        List<String> out = new ArrayList<>();
        for (String w : q.split("[^\\p{L}\\p{N}'-]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<Integer> shuffled(int n, SplittableRandom rng) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            Integer t = out.get(i);
            out.set(i, out.get(j));
            out.set(j, t);
        }
        return out;
    }

    private static String normalised(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    private static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Lower-cases the first letter unless the first word looks like a name (two capitals or more in it). */
    private static String lowerFirst(String s) {
        if (s.isEmpty()) {
            return s;
        }
        String first = s.split(" ", 2)[0];
        boolean name = first.chars().filter(Character::isUpperCase).count() > 1;
        return name ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}

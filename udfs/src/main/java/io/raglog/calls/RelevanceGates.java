package io.raglog.calls;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pipeline's own relevance gate: a chat call between retrieval and generation that asks a model whether the retrieved
 * context holds enough to answer the question, and lets the pipeline generate only when it does ("Do these chunks
 * contain sufficient information to answer the query accurately? Respond with only: SUFFICIENT or INSUFFICIENT").
 *
 * <p>A gate that said no ended its run there: no generator call follows, and before raglog read gates such a run was
 * left as an incomplete one, never checked, although it is the run a team most wants explained (retrieval missed, or
 * the knowledge base lacks the answer, or the gate refused context that held it). So a closed gate is read in the
 * generator's place ({@link ChatRole#GATE}); an open one is not a stage (the generator that follows answers).
 *
 * <p>All of it must hold, so that a generator prompt saying "if the context does not contain enough information to
 * answer, say you don't know" and answering "No." is not taken for a gate: the instructions ask whether the context
 * suffices <em>and</em> name the verdict words the reply must use (yes or no, SUFFICIENT or INSUFFICIENT, true or
 * false, a JSON field), and the reply is such a verdict. A grader of one document at a time (CRAG) is not a
 * gate: its "no" drops that document, and the pipeline goes on ({@link ChatRoleRules}).
 */
final class RelevanceGates {

    /** What a gate answered. */
    enum Verdict {
        /** The context suffices: the pipeline generates. */
        SUFFICIENT,
        /** It does not: the pipeline stops without an answer. */
        INSUFFICIENT,
        /** The reply is not a verdict (an answer, an explanation, nothing). */
        NONE
    }

    private static final String SOURCE = "(?:context|contexts|documents?|passages?|chunks?|sources?|excerpts?"
            + "|snippets?|information|search\\s+results|results)";

    /** The instructions ask whether the context suffices to answer. */
    private static final Pattern ASKS_SUFFICIENCY = Pattern.compile("(?i)"
            // "sufficient information to answer", "enough context to answer", "adequate evidence to answer"
            + "\\b(?:sufficient|enough|adequate)\\s+(?:information|context|evidence|details|data)\\s+(?:\\w+\\s+){0,2}?"
            + "to\\s+(?:fully\\s+|accurately\\s+|correctly\\s+)?answer\\b"
            // "whether the context is sufficient", "are these chunks enough"
            + "|\\b(?:is|are|whether|if)\\s+(?:the\\s+|these\\s+|this\\s+)?(?:\\w+\\s+){0,2}?" + SOURCE
            + "\\s+(?:is\\s+|are\\s+)?(?:sufficient|enough|adequate)\\b"
            // "can the question be answered from the documents", "whether the query can be answered using"
            + "|\\b(?:question|query)\\s+(?:can|could)\\s+be\\s+(?:fully\\s+)?answered\\s+(?:using|from|with|by"
            + "|based\\s+on)\\b"
            + "|\\bcan\\s+(?:the\\s+|this\\s+)?(?:user'?s?\\s+)?(?:question|query)\\s+be\\s+(?:fully\\s+)?answered\\b"
            // "does the context contain the answer", "do these passages provide enough to answer"
            + "|\\b(?:does|do)\\s+(?:the\\s+|these\\s+|this\\s+)?(?:\\w+\\s+){0,2}?" + SOURCE
            + "\\s+(?:contain|provide|hold|include|have)\\s+(?:\\w+\\s+){0,3}?(?:answer|sufficient|enough)\\b");

    /** The instructions name the verdict words: "yes or no", "SUFFICIENT or INSUFFICIENT", a JSON field. */
    private static final Pattern NAMES_VERDICT = Pattern.compile("(?i)"
            + "\\b(?:yes|sufficient|true|answerable)\\b['\"*`]?\\s*(?:or|/|\\||,)\\s*['\"*`]?"
            + "(?:no|insufficient|false|unanswerable|not\\s+(?:sufficient|answerable))\\b"
            + "|\\b(?:no|insufficient|false|unanswerable)\\b['\"*`]?\\s*(?:or|/|\\||,)\\s*['\"*`]?"
            + "(?:yes|sufficient|true|answerable)\\b"
            + "|[\"'](?:sufficient|is_sufficient|answerable|can_answer|has_answer|enough_context)[\"']\\s*:");

    static boolean asksForVerdict(String instructions) {
        return ASKS_SUFFICIENCY.matcher(instructions).find() && NAMES_VERDICT.matcher(instructions).find();
    }

    /** A reply that leads with its verdict word, as told: "INSUFFICIENT", "No.", "**Yes** - the second chunk ...". */
    private static final Pattern LEADING_WORD = Pattern.compile("(?i)^[\\s*_`'\"(\\[]*(?:verdict|answer|decision"
            + "|result|output)?\\s*:?[\\s*_`'\"]*(insufficient|sufficient|not\\s+sufficient|yes|no|true|false"
            + "|unanswerable|answerable|not\\s+answerable)\\b");

    /** {@code {"sufficient": false}}, {@code {"verdict": "INSUFFICIENT"}}, {@code {"answerable": "no"}}. */
    private static final Pattern JSON_FIELD = Pattern.compile("(?i)[\"'](?:sufficient|is_sufficient|answerable"
            + "|can_answer|has_answer|enough_context|verdict|decision|result|answer|binary_score)[\"']\\s*:\\s*"
            + "(?:[\"']([^\"']{1,20})[\"']|(true|false))");

    /** Past this a reply is an answer that happens to start with "No", not a verdict with its reason. */
    private static final int MAX_VERDICT_CHARS = 400;

    static Verdict verdict(String reply) {
        if (reply == null) {
            return Verdict.NONE;
        }
        String r = reply.strip();
        if (r.isEmpty() || r.length() > MAX_VERDICT_CHARS) {
            return Verdict.NONE;
        }
        if (r.startsWith("{") || r.startsWith("```")) {
            Matcher json = JSON_FIELD.matcher(r);
            return json.find() ? word(json.group(1) != null ? json.group(1) : json.group(2)) : Verdict.NONE;
        }
        Matcher lead = LEADING_WORD.matcher(r);
        return lead.find() ? word(lead.group(1)) : Verdict.NONE;
    }

    private static Verdict word(String w) {
        String v = w.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return switch (v) {
            case "sufficient", "yes", "true", "answerable" -> Verdict.SUFFICIENT;
            case "insufficient", "not sufficient", "no", "false", "unanswerable", "not answerable" ->
                    Verdict.INSUFFICIENT;
            default -> Verdict.NONE;
        };
    }

    private RelevanceGates() {}
}

package io.raglog.checks;

import java.util.regex.Pattern;

/**
 * Whether an answer (or one of its sentences) declines to answer from the context. One pattern for the rule checks and
 * the offline judge, so "the answer refuses" means the same to both.
 *
 * <p>Written from how instruction-tuned models word a refusal in a RAG prompt, not from any one generator's pool: the
 * first person failing to find or know ("I couldn't find that", "I don't have enough information"), the context or
 * sources not holding it ("the provided documents do not answer this", "the context doesn't mention …", "none of the
 * retrieved documents address …", "nothing in the passages says …", "the excerpts lack …"), and the impersonal forms
 * ("this cannot be determined", "is not mentioned", "no relevant information", "it is not possible to say"). Contractions with
 * straight or curly apostrophes count alike. A subject is required for "does not contain …", so an answer that says
 * "the treaty did not provide funding" is not taken for a refusal.
 */
public final class Refusals {

    private static final String NOT = "(?:n['\u2019]t| not)";
    private static final String SOURCE = "(?:context|passages?|documents?|sources?|texts?|excerpts?|information|"
            + "materials?|articles?|knowledge base)";
    /** What a source does when it answers: "the context does not mention", "none of the documents address". */
    private static final String TELLS = "(?:contain|mention|provide|say|specify|include|answer|cover|state|discuss|"
            + "address|give|hold|refer|talk|describe)";
    private static final Pattern REFUSAL = Pattern.compile("(?i)\\b(?:"
            // I don't know / I couldn't find / I'm unable to determine
            + "i(?: do| did| can| could)?" + NOT + " (?:know|find|answer|say|determine|tell|locate|see)"
            + "|i cannot (?:know|find|answer|say|determine|tell|locate|see)"
            + "|i(?: am|['\u2019]m) (?:unable|not able) to (?:answer|find|determine|tell|say)"
            + "|unable to (?:answer|find|determine)"
            // I don't have enough information / there is not enough context
            + "|(?:do|does)" + NOT + " have (?:enough|sufficient|any|the) (?:information|context|details)"
            + "|(?:not|insufficient|isn['\u2019]t) (?:enough|sufficient) (?:information|context|details)"
            + "|insufficient (?:information|context)"
            + "|no (?:relevant |such |specific )?(?:information|mention|details)"
            // the provided context does not mention … / does not seem to cover … (a source as the subject, a few
            // words before the verb)
            + "|" + SOURCE + "\\b[^.!?]{0,40}?\\b(?:do|does|did)" + NOT + " (?:(?:appear|seem) to )?" + TELLS
            // none of the retrieved documents address … / no passage mentions … / nothing in the context says …
            + "|(?:none|neither) of the (?:\\w+ ){0,2}" + SOURCE + "\\b[^.!?]{0,30}?\\b" + TELLS
            + "|\\bno (?:\\w+ ){0,2}" + SOURCE + "\\b[^.!?]{0,30}?\\b" + TELLS
            + "|nothing in the (?:\\w+ ){0,2}" + SOURCE
            // the context lacks it / is silent on it / it is not present in the passages
            + "|" + SOURCE + "\\b[^.!?]{0,40}?\\b(?:lacks?|is silent)\\b"
            + "|not (?:found|present|contained) (?:in|among) the (?:\\w+ ){0,2}" + SOURCE
            // it is not possible to answer from …
            + "|(?:not possible|impossible) to (?:answer|determine|say|tell|know)"
            // it is not mentioned / this cannot be determined
            + "|(?:is|are|was|were)" + NOT + " (?:mentioned|provided|available|specified|stated|given|covered|"
            + "included|addressed|discussed)"
            + "|(?:cannot|can['\u2019]t|could not|couldn['\u2019]t) be (?:determined|answered|found|inferred)"
            + ")");

    private Refusals() {}

    public static boolean refuses(String text) {
        return text != null && REFUSAL.matcher(text).find();
    }
}

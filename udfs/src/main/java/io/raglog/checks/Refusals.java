package io.raglog.checks;

import java.util.regex.Pattern;

/**
 * Whether an answer (or one of its sentences) declines to answer from the context. One pattern for the rule checks and
 * the offline judge, so "the answer refuses" means the same to both.
 *
 * <p>Written from how instruction-tuned models word a refusal in a RAG prompt, not from any one generator's pool: the
 * first person failing to find or know ("I couldn't find that", "I don't have enough information"), the context or
 * sources not holding it ("the provided documents do not answer this", "the context doesn't mention …"), and the
 * impersonal forms ("this cannot be determined", "is not mentioned", "no relevant information"). Contractions with
 * straight or curly apostrophes count alike. A subject is required for "does not contain …", so an answer that says
 * "the treaty did not provide funding" is not taken for a refusal.
 */
public final class Refusals {

    private static final String NOT = "(?:n['\u2019]t| not)";
    private static final String SOURCE = "(?:context|passages?|documents?|sources?|texts?|excerpts?|information|"
            + "materials?|articles?|knowledge base)";
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
            // the provided context does not mention … (a source as the subject, a few words before the verb)
            + "|" + SOURCE + "\\b[^.!?]{0,40}?\\b(?:do|does|did)" + NOT
            + " (?:contain|mention|provide|say|specify|include|answer|cover|state|discuss|address|give)"
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

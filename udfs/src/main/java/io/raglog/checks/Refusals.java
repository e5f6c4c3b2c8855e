package io.raglog.checks;

import java.util.regex.Pattern;

/**
 * Whether an answer (or one of its sentences) declines to answer from the context. One pattern for the rule checks and
 * the offline judge, so "the answer refuses" means the same to both.
 *
 * <p>Written from how instruction-tuned models word a refusal in a RAG prompt, not from any one generator's pool: the
 * first person failing to find or know ("I couldn't find that", "I don't have enough information"), the context or
 * sources not holding it ("the provided documents do not answer this", "the context doesn't mention …", "none of the
 * retrieved documents address …", "nothing in the passages says …", "the excerpts lack …", "the documents are silent on
 * this", "the passages make no reference to …", "it isn't in the context", "missing from the context"), declining to
 * give one ("I can't provide an answer", "I don't have access to that information"), and the impersonal forms ("this
 * cannot be determined", "is not mentioned", "no relevant information", "it is not possible to say", "no answer can be
 * found", "unclear from the context"). Contractions with straight or curly apostrophes count alike. A source is
 * required as the subject or the place ("does not contain …", "no indication in the documents"), so an answer that says
 * "the treaty did not provide funding" or "the treaty makes no reference to the navy" is not taken for a refusal. A
 * hedge ("I'm not sure, but …") is not a refusal: it goes on to answer.
 *
 * <p>Hosted chat models word a refusal in more ways than the simulator does. Of 45 refusals written as they word them
 * (2026-12-06; those the old forms missed are in the test), 18 were recognised before the declining forms and the
 * source as a place were added, 43 after (left: "I'm not sure based on the given context", and "the context only
 * discusses X, not Y"); the simulated runs' features came out the same to the bit (their refusals were all recognised
 * already).
 *
 * <p>An agent that searched through a tool words a refusal as its search's ("the search didn't turn up anything",
 * "I searched the knowledge base but found nothing"). Two of the held-out agent profile's four refusals were not
 * recognised, and each was read as a claim the context does not support: 30 of its 230 sound runs flagged (seed 23;
 * 8 after). The forms were written wider than those two (the test's), and need the search as the subject or the
 * first person searching, so a search that is part of an answer ("the search for survivors found nothing") is none.
 * They also recognised the gated profile's "I wasn't able to find …".
 */
public final class Refusals {

    private static final String NOT = "(?:n['\u2019]t| not)";
    private static final String SOURCE = "(?:context|passages?|documents?|sources?|texts?|excerpts?|information|"
            + "materials?|articles?|knowledge base)";
    /** What a source does when it answers: "the context does not mention", "none of the documents address". */
    private static final String TELLS = "(?:contain|mention|provide|say|specify|include|answer|cover|state|discuss|"
            + "address|give|hold|refer|talk|describe|offer|reference|indicate|explain|identify|name|detail|tell|list|"
            + "clarify|note|show|reveal|go into|touch on)";
    /** "the provided context", "these retrieved documents", "context": a source with a few words before it. */
    private static final String A_SOURCE = "(?:(?:the|these|this|those|any|my|our|your) )?(?:\\w+ ){0,2}" + SOURCE
            + "\\b";
    private static final Pattern REFUSAL = Pattern.compile("(?i)\\b(?:"
            // I don't know / I couldn't find / I'm unable to determine
            + "i(?: do| did| can| could)?" + NOT + " (?:know|find|answer|say|determine|tell|locate|see)"
            + "|i cannot (?:know|find|answer|say|determine|tell|locate|see)"
            + "|i(?: am|['\u2019]m) (?:unable|not able) to (?:answer|find|determine|tell|say)"
            + "|unable to (?:answer|find|determine)"
            // I don't have enough information / I don't have access to that / I have no way of knowing
            + "|(?:do|does)" + NOT + " have (?:enough|sufficient|any|the) (?:information|context|details)"
            + "|\\b(?:i|we)(?: do| did)?" + NOT + " have (?:access to )?(?:that |this |the |any |such )?"
            + "(?:information|details|data)"
            + "|\\b(?:i|we) have no (?:access|data|details|knowledge|(?:way|means) (?:of|to))\\b"
            // I can't provide an answer / I cannot provide that information / I can't help with that
            + "|(?:cannot|can['\u2019]t|can not|unable to) (?:provide|give|offer) "
            + "(?:(?:an? |the |any )?(?:answer|response)|(?:that|this|such|the|any) information)"
            + "|\\bi (?:cannot|can['\u2019]t|can not) help with"
            + "|\\bno answer (?:(?:can|could) be |was |is )?(?:found|given|provided|available)"
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
            // the context lacks it / is silent on it / makes no mention of it / is unclear about it
            + "|" + SOURCE + "\\b[^.!?]{0,40}?\\b(?:lacks?|(?:is|are) (?:silent|unclear))\\b"
            + "|" + SOURCE + "\\b[^.!?]{0,40}?\\b(?:makes?|gives?|offers?|contains?|provides?|includes?|has|have)"
            + " no\\b"
            // it is not present in the passages / it isn't in the context / not found in context / missing from it
            + "|(?:not|(?:is|are|was|were)n['\u2019]t) (?:(?:found|present|contained|included|available) )?"
            + "(?:anywhere )?(?:in|among|within) "
            + A_SOURCE
            + "|\\bmissing (?:from|in) " + A_SOURCE
            // nothing about that in the context / no indication in the documents / unclear from the passages
            + "|\\bnothing (?:about|on|regarding) [^.!?]{0,40}?\\bin " + A_SOURCE
            + "|\\bno (?:\\w+ ){1,3}?(?:in|within|among) " + A_SOURCE + "\\b"
            + "|\\b(?:unclear|not clear) (?:from|in|based on) " + A_SOURCE
            + "|\\bnot something (?:that )?" + A_SOURCE
            // an agent's search came back empty: "the search didn't turn up anything", "my search of the knowledge
            // base returned no results", "I searched the documents but found nothing" (the search is the subject, or
            // searched through a source: "the search for survivors found nothing" is an answer)
            + "|\\b(?:my|our|the|a) search(?:es)?(?: (?:of|in|through) " + A_SOURCE + ")? (?:(?:did|does|do)" + NOT
            + " (?:turn up|find|return|surface|bring up|yield)|(?:returned|found|yielded|turned up|brought up|gave)"
            + " (?:no|nothing|zero)\\b|came (?:back|up) empty)"
            + "|\\bi searched\\b[^.!?]{0,50}?\\b(?:but|and) (?:found|came up with|turned up|got) (?:nothing|no)\\b"
            + "|\\bi (?:was|were)" + NOT + " able to (?:answer|find|determine|tell|say|locate)"
            + "|\\bnothing (?:relevant |useful )?(?:came|turned) up (?:in|from|when|with) (?:my|the|a|your) search"
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

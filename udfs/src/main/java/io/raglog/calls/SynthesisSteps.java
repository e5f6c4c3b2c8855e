package io.raglog.calls;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A generator call that carries an earlier call's answer for it to refine: the later steps of an answer synthesised in
 * several calls. LlamaIndex's refine (and its compact mode, when the passages overflow one prompt: "We have provided
 * an existing answer: …", in chat form "Original Answer: …"), LangChain's refine chain, and hand-written ones alike.
 * The first step is an ordinary generator call, and nothing in it says another will follow; run assembly links the
 * steps by the answer one hands the next.
 */
public final class SynthesisSteps {

    /**
     * "We have provided an existing answer:", "Original Answer:", "Previous answer:", at a line start or after a
     * sentence; the answer follows.
     */
    private static final Pattern PRIOR_ANSWER_LABEL = Pattern.compile("(?im)(?:^|(?<=[.:!?])[ \\t]+)[ \\t]*"
            + "(?:we[ \\t]+have[ \\t]+provided[ \\t]+an?[ \\t]+|here[ \\t]+is[ \\t]+the[ \\t]+|the[ \\t]+)?"
            + "(?:existing|original|previous|prior|current|initial|draft)[ \\t]+answer[ \\t]*(?:is)?[ \\t]*:[ \\t]*");

    /**
     * Where the answer a step carries ends: the template's next sentence or label, a separator line (not a blank line:
     * an answer written as paragraphs or a list holds some).
     */
    private static final Pattern PRIOR_ANSWER_END = Pattern.compile("(?im)\\n[ \\t]*(?:we[ \\t]+have[ \\t]+the"
            + "[ \\t]+opportunity|(?:new|refined|improved|updated|final)[ \\t]+answer[ \\t]*:|(?:new[ \\t]+)?context"
            + "(?:[ \\t]+information)?[ \\t]*:|query[ \\t]*:|question[ \\t]*:|-{3,}|={3,}|#{2,})");

    /** What a refine step is asked to do, besides carrying the answer: refine it, rewrite it with new context. */
    private static final Pattern REFINE_WORDS = Pattern.compile("(?i)\\brefin(?:e|es|ed|ing)\\b|\\bnew[ \\t]+context\\b");

    private SynthesisSteps() {}

    /**
     * The earlier answer a generator's prompt hands it to refine, as written; null when its prompt carries none or does
     * not ask for it to be refined. Read from the prompt's messages, not kept on the call: only run assembly asks, once
     * per generator call, and most prompts are passed over on a plain search for the words a refine step uses.
     */
    public static String priorAnswer(ChatDetail chat) {
        if (chat.role() != ChatRole.GENERATE) {
            return null;
        }
        List<String> parts = chat.promptParts();
        if (!asksToRefine(parts)) {
            return null;
        }
        for (String part : parts) {
            Matcher label = PRIOR_ANSWER_LABEL.matcher(part);
            if (label.find()) {
                Matcher end = PRIOR_ANSWER_END.matcher(part);
                int stop = end.find(label.end()) ? end.start() : part.length();
                String answer = part.substring(label.end(), stop).strip();
                return answer.isEmpty() ? null : answer;
            }
        }
        return null;
    }

    /** A conversation's "Previous answer:" is not a step to refine: the prompt must ask for one. */
    private static boolean asksToRefine(List<String> parts) {
        for (String part : parts) {
            // what REFINE_WORDS needs, looked for plainly first: the regular expression runs on few prompts
            boolean maybe = part.contains("efin") || part.contains("EFIN") || part.contains("ew context")
                    || part.contains("ew Context") || part.contains("EW CONTEXT");
            if (maybe && REFINE_WORDS.matcher(part).find()) {
                return true;
            }
        }
        return false;
    }
}

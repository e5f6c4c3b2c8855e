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

    private SynthesisSteps() {}

    /**
     * The earlier answer a generator's prompt hands it to refine, as written; null when its prompt carries none or does
     * not ask for it to be refined. Read from the messages, not kept on the call: only run assembly asks, once
     * per generator call, and most prompts are passed over on a plain search for the words a refine step uses.
     */
    public static String priorAnswer(ChatDetail chat) {
        if (chat.role() != ChatRole.GENERATE) {
            return null;
        }
        if (!asksToRefine(chat.messages())) {
            return null;
        }
        for (ChatMessage m : chat.messages()) {
            String part = m.content() == null ? "" : m.content();
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

    /**
     * A conversation's "Previous answer:" is not a step to refine: the prompt must ask for one, by a word that begins
     * "refin" (refine, refining: LlamaIndex's and LangChain's templates all say it). Looked for without a regular
     * expression: "defined" is common in passages, and this is asked of every generator call.
     */
    private static boolean asksToRefine(List<ChatMessage> messages) {
        for (ChatMessage m : messages) {
            String part = m.content() == null ? "" : m.content();
            for (int at = part.indexOf("efin"); at >= 0; at = part.indexOf("efin", at + 4)) {
                if (at > 0 && (part.charAt(at - 1) == 'r' || part.charAt(at - 1) == 'R')
                        && (at == 1 || !Character.isLetter(part.charAt(at - 2)))) {
                    return true;
                }
            }
        }
        return false;
    }
}

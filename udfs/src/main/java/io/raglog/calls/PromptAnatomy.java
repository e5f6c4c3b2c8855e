package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a chat prompt the way a person would: where the user's question is, and where the context block of a
 * generator prompt is (LangChain, LlamaIndex "Context information is below.", "Context:\n...\nQuestion:", a system
 * message holding the context and a user message holding the question, ...).
 *
 * <p>The context block is looked for in the last user message first (single-message templates), then in system
 * messages (the question then is the user message), then in tool results that came after the question (agentic
 * RAG returns passages as tool output). The question is the labelled one ("Question:", "Query:", "Original
 * question:", "Follow Up Input:", {@code <question>}) when the template labels it, else what is left of the last
 * user message once the context and the instructions are taken out.
 */
public final class PromptAnatomy {

    /** A code fence or triple quote opening or closing the text. */
    private static final Pattern FENCE = Pattern.compile("^(?:\"\"\"|```)|(?:\"\"\"|```)$");
    /** A label with nothing after it: a template's trailing "Answer:". */
    private static final Pattern EMPTY_ANSWER_LABEL = Pattern.compile("(?is)[^:]*:\\s*");

    /**
     * @param question the user's question, null when it cannot be told
     * @param contextText the context block, null when the prompt has none
     * @param contextPassages the block split into passages, best effort, empty when none
     */
    public record Parsed(String question, String contextText, List<String> contextPassages) {
        public boolean hasContext() {
            return contextText != null && !contextText.isBlank();
        }
    }

    private PromptAnatomy() {}

    public static Parsed parse(List<ChatMessage> messages) {
        if (messages == null || messages.isEmpty()) {
            return new Parsed(null, null, List.of());
        }
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if (isUser(messages.get(i).role())) {
                lastUser = i;
            }
        }
        String user = lastUser < 0 ? null : text(messages.get(lastUser));
        ContextBlocks.Block block = user == null ? null : ContextBlocks.find(user);
        boolean blockInUser = block != null;
        for (int i = 0; block == null && i < messages.size(); i++) {
            if (isSystem(messages.get(i).role())) {
                block = ContextBlocks.find(text(messages.get(i)));
            }
        }
        if (block == null) {
            block = toolResults(messages, lastUser);
        }
        String question = user == null ? null : question(user, blockInUser ? block : null);
        if (block == null) {
            return new Parsed(question, null, List.of());
        }
        return new Parsed(question, block.text(), block.passages());
    }

    static boolean isUser(String role) {
        String r = role == null ? "" : role.toLowerCase(Locale.ROOT);
        return r.equals("user") || r.equals("human");
    }

    static boolean isSystem(String role) {
        String r = role == null ? "" : role.toLowerCase(Locale.ROOT);
        return r.equals("system") || r.equals("developer");
    }

    private static String text(ChatMessage m) {
        return m.content() == null ? "" : m.content();
    }

    /** Tool output that arrived after the question: each tool message is split like any other block. */
    private static ContextBlocks.Block toolResults(List<ChatMessage> messages, int lastUser) {
        StringBuilder joined = new StringBuilder();
        List<String> passages = new ArrayList<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            String role = m.role() == null ? "" : m.role().toLowerCase(Locale.ROOT);
            if ((role.equals("tool") || role.equals("function")) && !text(m).isBlank()) {
                joined.append(joined.length() > 0 ? "\n\n" : "").append(text(m).strip());
                passages.addAll(ContextBlocks.split(text(m)));
            }
        }
        return joined.length() == 0 ? null
                : new ContextBlocks.Block(-1, -1, joined.toString(), List.copyOf(passages));
    }

    /**
     * The question in the last user message: a labelled one outside the context block (the last label wins, as
     * passages may hold "Question:" lines of their own), else the message without the block and instructions.
     */
    static String question(String user, ContextBlocks.Block block) {
        String outside = block == null || block.start() < 0 ? user
                : user.substring(0, block.start()) + "\n\n" + user.substring(block.end());
        String labelled = labelled(outside);
        if (labelled != null) {
            return labelled;
        }
        if (PromptPatterns.mayHoldElements(outside)) {
            Matcher xml = PromptPatterns.XML_QUESTION.matcher(outside);
            if (xml.find() && !xml.group(2).isBlank()) {
                return clean(xml.group(2));
            }
        }
        return unlabelled(outside, block != null);
    }

    private static String labelled(String text) {
        int valueStart = -1;
        LineStarts.Matches line = new LineStarts(text).matches(PromptPatterns.QUESTION_LABEL, 0);
        while (line.find()) {
            valueStart = line.end();
        }
        if (valueStart < 0) {
            Matcher mid = PromptPatterns.INLINE_QUESTION_LABEL.matcher(text);
            while (mid.find()) {
                valueStart = mid.end();
            }
        }
        if (valueStart < 0) {
            return null;
        }
        String rest = text.substring(valueStart);
        String firstLine = rest.strip();
        if (firstLine.isEmpty()) {
            return null;
        }
        // The value may start on the next line ("Question:\n{question}"): skip leading blank space before ending.
        int lead = rest.length() - rest.stripLeading().length();
        // A template slot ends with its line ("The original query is as follows: {q}\nWe have provided an
        // existing answer: ..."); a question that wraps onto a second line is rarer than a template's next line.
        int newline = rest.indexOf('\n', lead);
        int stop = newline >= 0 ? newline : rest.length();
        if (mayEndBefore(rest, lead, stop)) {
            Matcher end = PromptPatterns.QUESTION_END.matcher(rest);
            stop = end.find(lead) ? Math.min(stop, end.start()) : stop;
        }
        String value = clean(rest.substring(lead, Math.max(lead, stop)));
        return value.isEmpty() ? null : value;
    }

    /**
     * Whether the question's end can come before its line's: each of {@link PromptPatterns#QUESTION_END}'s matches
     * that starts within a line is a label's colon, {@code """} or {@code </}, and most questions hold none of these,
     * while the pattern's many labels are tried at each of their characters.
     */
    private static boolean mayEndBefore(String text, int from, int lineEnd) {
        return within(text.indexOf(':', from), lineEnd) || within(text.indexOf("\"\"\"", from), lineEnd)
                || within(text.indexOf("</", from), lineEnd);
    }

    private static boolean within(int index, int end) {
        return index >= 0 && index < end;
    }

    /**
     * No label: a user message that is only the question is the question. When instructions share the message,
     * the paragraphs that announce material or give instructions are dropped and the last one asking something
     * is kept.
     */
    private static String unlabelled(String text, boolean hadBlock) {
        String stripped = clean(text);
        if (stripped.isEmpty()) {
            return null;
        }
        List<String> paragraphs = new ArrayList<>();
        for (String p : Paragraphs.split(stripped)) {
            String c = clean(p);
            if (!c.isEmpty() && !PromptPatterns.CONTEXT_INSTRUCTION_LEADS.foundIn(c)
                    && !PromptPatterns.CONTEXT_ABOVE_LEADS.foundIn(c)
                    && !PromptPatterns.ANSWER_LABEL.matcher(c).matches()) {
                paragraphs.add(c);
            }
        }
        if (paragraphs.isEmpty()) {
            return hadBlock ? null : stripped;
        }
        if (paragraphs.size() == 1) {
            return paragraphs.get(0);
        }
        for (int i = paragraphs.size() - 1; i >= 0; i--) {
            if (paragraphs.get(i).contains("?")) {
                return paragraphs.get(i);
            }
        }
        return paragraphs.get(paragraphs.size() - 1);
    }

    private static boolean isQuote(char c) {
        return "\"'`“”‘’".indexOf(c) >= 0;
    }

    /** Trims whitespace, quotes and the code fences templates wrap values in. */
    private static String clean(String s) {
        String out = s.strip();
        String before;
        do {
            before = out;
            if (out.contains("\"\"\"") || out.contains("```")) { // what a fence is made of: most values have neither
                out = FENCE.matcher(out).replaceAll("").strip();
            }
            if (out.length() >= 2 && isQuote(out.charAt(0)) && isQuote(out.charAt(out.length() - 1))) {
                out = out.substring(1, out.length() - 1).strip();
            }
            LineStarts.Matches answer = new LineStarts(out).matches(PromptPatterns.ANSWER_LABEL, 0);
            int lastAnswer = -1;
            while (answer.find()) {
                lastAnswer = answer.start();
            }
            if (lastAnswer >= 0 && EMPTY_ANSWER_LABEL.matcher(out.substring(lastAnswer).strip()).matches()) {
                out = out.substring(0, lastAnswer).strip(); // a template's trailing "Answer:" with nothing after
            }
        } while (!out.equals(before));
        return out;
    }
}

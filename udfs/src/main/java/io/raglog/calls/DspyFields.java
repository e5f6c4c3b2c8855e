package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prompts and replies of a DSPy program (its chat adapter): every input and output field under a
 * {@code [[ ## name ## ]]} header, passages as {@code [1] «text»}, the system message describing the fields and
 * their layout with placeholders, and a reply made of its output fields ({@code reasoning}, then {@code answer} or
 * whatever the signature names) ending in {@code [[ ## completed ## ]]}. Read as the template-written prompt it
 * stands for: a field {@code context} becomes a "Context:" block and {@code question} a "Question:" line, the layout
 * and the output instructions are dropped, and the reply is its first output field that is not the model's reasoning,
 * which is what the program hands on (DSPy's {@code prediction.answer}).
 */
final class DspyFields {

    private static final String HEADER_START = "[[ ## ";

    private static final Pattern HEADER =
            Pattern.compile("(?m)^[ \\t]*\\[\\[ ## ([A-Za-z_]\\w*) ## \\]\\][ \\t]*\\n?");
    /** The system message's layout: from its announcement to the completed marker, placeholders and all. */
    private static final Pattern LAYOUT = Pattern.compile(
            "(?s)All interactions will be structured in the following way.*?\\[\\[ ## completed ## \\]\\]\\s*");
    /** The user message's closing instruction: "Respond with the corresponding output fields, starting with …". */
    private static final Pattern RESPOND =
            Pattern.compile("(?s)\\n?[ \\t]*Respond with the corresponding output fields.*$");
    private static final Pattern GUILLEMETS = Pattern.compile("(?m)^([ \\t]*\\[\\d{1,3}\\][ \\t]*)«(.*?)»[ \\t]*$");
    private static final List<String> NOT_THE_ANSWER = List.of("reasoning", "rationale", "completed");

    private DspyFields() {}

    /** Whether any message is written in DSPy's field layout; nothing else is touched. */
    static boolean used(List<ChatMessage> messages) {
        for (ChatMessage m : messages) {
            if (m.content() != null && m.content().contains(HEADER_START)) {
                return true;
            }
        }
        return false;
    }

    /** The messages with their fields as labels: {@code context} a block, {@code question} a line, others "name:". */
    static List<ChatMessage> messages(List<ChatMessage> messages) {
        List<ChatMessage> out = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) {
            String text = m.content();
            if (text != null && text.contains(HEADER_START)) {
                text = LAYOUT.matcher(text).replaceAll("");
                text = RESPOND.matcher(text).replaceAll("");
                text = labelled(text);
                text = GUILLEMETS.matcher(text).replaceAll("$1$2");
            }
            out.add(new ChatMessage(m.role(), text));
        }
        return out;
    }

    /** The reply's first output field other than the reasoning; the reply itself when it has no fields. */
    static String output(String output) {
        if (output == null || !output.contains(HEADER_START)) {
            return output;
        }
        Matcher header = HEADER.matcher(output);
        String field = null;
        int start = -1;
        while (header.find()) {
            if (field != null) {
                return output.substring(start, header.start()).strip();
            }
            if (!NOT_THE_ANSWER.contains(header.group(1).toLowerCase(Locale.ROOT))) {
                field = header.group(1);
                start = header.end();
            }
        }
        return field != null ? output.substring(start).strip() : output;
    }

    private static String labelled(String text) {
        Matcher header = HEADER.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (header.find()) {
            String name = header.group(1).toLowerCase(Locale.ROOT);
            String label = name.equals("context") ? "Context:\n"
                    : name.equals("question") ? "Question: "
                    : Character.toUpperCase(name.charAt(0)) + name.substring(1).replace('_', ' ') + ": ";
            header.appendReplacement(out, Matcher.quoteReplacement(label));
        }
        header.appendTail(out);
        return out.toString().strip();
    }
}

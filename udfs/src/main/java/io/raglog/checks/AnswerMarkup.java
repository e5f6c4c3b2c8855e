package io.raglog.checks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An answer as the checks read its claims: without the citation markers, list bullets and emphasis a generator dresses
 * it in. "Warsaw [1]." claims Warsaw, not the number 1; "(source: Steam engine)" names the passage it came from, not
 * a fact; "1. Warsaw" numbers a list. Read as written, a cited answer's marker was a number its context never holds,
 * so a sound cited answer read as unsupported (the offline judge's support check at 100 % fault) and a faulty one
 * could not be told from it: on the held-out sample the generator's faults in cited, listed and sourced answers were
 * caught 4 times in 14 against two in three of the rest. Hosted models cite and list far more often than the
 * simulator's generators do.
 *
 * <p>A generator that answers through structured output or a tool call ({@code {"answer": "…", "citations": [0,
 * 2]}}, LangChain's cited-answer pattern) claims what its answer field says; the citations' indexes are no claim.
 *
 * <p>The verdict's answer stays what the generator said; only what the rules and the offline judge read is cleaned.
 */
public final class AnswerMarkup {

    /** "[1]", "[1, 3]", "[2-4]", "[^1]", "[Doc 2]", "[source 3]", "[Warsaw-43#0]": a short bracket with a number. */
    private static final Pattern BRACKET_CITATION = Pattern.compile("[ \\t]*\\[\\^?[\\p{L}_ #:.-]{0,24}?\\d"
            + "[\\w#:.-]{0,16}(?:[ \\t]*[,;\u2013-][ \\t]*[\\p{L}_ #:.-]{0,24}?\\d[\\w#:.-]{0,16})*\\]");
    /** OpenAI's file-search citations: "【4:0†source】". */
    private static final Pattern LENTICULAR_CITATION = Pattern.compile("[ \\t]*\u3010[^\u3011\\n]{0,60}\u3011");
    /** "(source: Steam engine)", "(Sources: doc 1, doc 2)", "(see passage 2)". */
    private static final Pattern SOURCE_NOTE = Pattern.compile("(?i)[ \\t]*\\((?:(?:sources?|references?|citations?|"
            + "cited|ref)\\b[ \\t]*:?[^()\\n]{0,80}"
            + "|see (?:the )?(?:passages?|documents?|docs?|sources?|excerpts?|context)\\b[^()\\n]{0,40})\\)");
    /** A closing "Sources: [1], [2]" or "References:" line. */
    private static final Pattern SOURCES_LINE = Pattern.compile("(?im)^[ \\t]*(?:sources?|references?|citations?)"
            + "[ \\t]*:.*$");
    /** "Passage 2", "Document #3", "doc 1" in prose: a pointer, not a name and a number. */
    private static final Pattern NUMBERED_POINTER = Pattern.compile(
            "(?i)\\b(?:passage|document|doc|source|chunk|excerpt)[ \\t]*#?[ \\t]*\\d{1,3}\\b");
    /** "- ", "* ", "• ", "1. ", "2) " at a line start. */
    private static final Pattern BULLET = Pattern.compile("(?m)^[ \\t]*(?:[-*\u2022+]|\\d{1,2}[.)])[ \\t]+");
    /** A short line that introduces a list: "Key points:", "Here is what the context says:". */
    private static final Pattern LIST_INTRO = Pattern.compile("(?m)^[^\\n.!?]{0,60}:[ \\t]*$\\n?");
    private static final Pattern EMPHASIS = Pattern.compile("(?m)\\*\\*|__|^#{1,6}[ \\t]+");
    /** A line that ends without a sentence's end: a list item, joined to the next as a sentence of its own. */
    private static final Pattern UNENDED_LINE =
            Pattern.compile("(?<=[\\p{L}\\p{N})\"'\u2019])[ \\t]*\\n+[ \\t]*(?=\\S)");

    private AnswerMarkup() {}

    /** The answer's claims as text; the answer itself when it has no markup, null for null. */
    public static String stripped(String answer) {
        if (answer == null) {
            return null;
        }
        String claimed = answerField(answer);
        if (!mayHaveMarkup(claimed)) {
            return claimed;
        }
        String s = LENTICULAR_CITATION.matcher(claimed).replaceAll("");
        s = BRACKET_CITATION.matcher(s).replaceAll("");
        s = SOURCE_NOTE.matcher(s).replaceAll("");
        s = SOURCES_LINE.matcher(s).replaceAll("");
        s = NUMBERED_POINTER.matcher(s).replaceAll("the passage");
        s = EMPHASIS.matcher(s).replaceAll("");
        boolean listed = BULLET.matcher(s).find();
        if (listed) {
            s = BULLET.matcher(s).replaceAll("");
            s = LIST_INTRO.matcher(s).replaceAll("");
            s = UNENDED_LINE.matcher(s).replaceAll(". ");
        }
        return s.strip();
    }

    /** Field names a structured answer puts its text under, in the order they are looked for. */
    private static final List<String> ANSWER_FIELDS = List.of("answer", "final_answer", "response", "output", "text",
            "content");

    /** The text of a structured answer's answer field; the answer as it is when it is no JSON object or has none. */
    private static String answerField(String answer) {
        String text = answer.strip();
        if (text.length() < 2 || text.charAt(0) != '{' || text.charAt(text.length() - 1) != '}') {
            return answer;
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return answer;
        }
        String found = null;
        int rank = ANSWER_FIELDS.size();
        for (var it = node.fields(); it.hasNext(); ) {
            var field = it.next();
            int at = ANSWER_FIELDS.indexOf(field.getKey().toLowerCase(Locale.ROOT));
            if (at >= 0 && at < rank && field.getValue().isTextual()) {
                found = field.getValue().textValue();
                rank = at;
            }
        }
        return found != null ? found : answer;
    }

    /** Cheap test first: most answers have none of the characters any markup starts with. */
    private static boolean mayHaveMarkup(String answer) {
        for (int i = 0; i < answer.length(); i++) {
            char c = answer.charAt(i);
            if (c == '[' || c == '(' || c == '\n' || c == '*' || c == '_' || c == '#' || c == '\u3010'
                    || c == '\u2022') {
                return true;
            }
        }
        Matcher pointer = NUMBERED_POINTER.matcher(answer);
        return pointer.find();
    }
}

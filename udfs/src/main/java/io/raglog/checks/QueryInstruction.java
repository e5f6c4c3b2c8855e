package io.raglog.checks;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The instruction an embedding model family wants before a query, as pipelines send it: E5's {@code "query: "},
 * nomic's {@code "search_query: "}, BGE's {@code "Represent this sentence for searching relevant passages: "}, at most
 * two stacked (a framework's before the model's). It is part of the text sent but not of the query: checked as words
 * the query added, a healthy prefixed query looked like an embedding fault (a real LangChain.js client's BGE-prefixed
 * queries were all flagged, {@code JsRagClientsTest}).
 */
public final class QueryInstruction {

    /** An instruction is a short phrase before a colon near the start. */
    private static final int MAX_WORDS = 12;
    /** Instructions taken off one after another. */
    public static final int MAX_STACKED = 2;

    private QueryInstruction() {}

    /**
     * The text after a short phrase ending in a colon ("query: ...", "Represent ...: ..."), or null: what linking
     * tries off a text, keeping the better score, so it reads any field name as one.
     */
    public static String after(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon + 1 >= text.length()) {
            return null;
        }
        String head = text.substring(0, colon);
        if (Terms.words(head).size() > MAX_WORDS || head.indexOf('?') >= 0) {
            return null;
        }
        String rest = text.substring(colon + 1).strip();
        return rest.isEmpty() ? null : rest;
    }

    /**
     * The query an embedded text carries: the text after each leading instruction whose content words are mostly
     * absent from the texts it was made from (so "Super Bowl 50: who won" stays whole when the rewrite says "Super
     * Bowl 50"); the text itself when it starts with none. A null text stays null.
     */
    public static String queryOf(String text, Collection<String> sources) {
        if (text == null || text.indexOf(':') < 0) {
            return text;
        }
        Set<String> sourceWords = null;
        String query = text;
        for (int i = 0; i < MAX_STACKED; i++) {
            String rest = modelInstructionBefore(query);
            if (rest == null) {
                break;
            }
            if (sourceWords == null) {
                sourceWords = new HashSet<>();
                for (String s : sources) {
                    if (s != null) {
                        sourceWords.addAll(Terms.words(s));
                    }
                }
            }
            if (!foreign(query.substring(0, query.length() - rest.length()), sourceWords)) {
                break;
            }
            query = rest;
        }
        return query;
    }

    /**
     * The text after an instruction as embedding models take one, or null: {@link #after}'s phrase, on one line and
     * with no sentence's end in it, then a space. A prompt's field ("Chat History:" then a new line) or a sentence
     * ending in one ("Rewrite the following question for a search engine. Question: ...") is not such an
     * instruction: a pipeline that embeds its rewrite prompt has embedded the wrong field, a fault the checks must see.
     */
    static String modelInstructionBefore(String text) {
        String rest = after(text);
        if (rest == null) {
            return null;
        }
        int colon = text.indexOf(':');
        for (int i = 0; i < colon; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == '.' || c == '!') {
                return null;
            }
        }
        return text.charAt(colon + 1) == ' ' ? rest : null;
    }

    /** The texts sent for embedding, each as {@link #queryOf} reads it. */
    public static List<String> queriesOf(List<String> texts, Collection<String> sources) {
        return texts.stream().map(t -> queryOf(t, sources)).toList();
    }

    /** Whether fewer than half of the instruction's content words are the sources' words. */
    private static boolean foreign(String instruction, Set<String> sourceWords) {
        int content = 0;
        int known = 0;
        for (String w : Terms.words(instruction)) {
            if (Terms.isContentWord(w)) {
                content++;
                known += sourceWords.contains(w) ? 1 : 0;
            }
        }
        return 2 * known < content || content == 0;
    }
}

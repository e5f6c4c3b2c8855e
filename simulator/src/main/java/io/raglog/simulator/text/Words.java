package io.raglog.simulator.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Word-level text handling shared by the embedder, the reranker, the rewriter and the generator. */
public final class Words {

    /** Function words a keyword query leaves out and a bag of words ignores. */
    private static final Set<String> STOPWORDS = Set.of(
            "a", "an", "the", "and", "or", "but", "of", "in", "on", "at", "to", "for", "from", "by", "with", "about",
            "as", "into", "through", "during", "before", "after", "over", "under", "between", "against", "than",
            "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "has", "have",
            "had", "having", "can", "could", "would", "should", "will", "shall", "may", "might", "must",
            "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "that", "this", "these", "those",
            "it", "its", "they", "them", "their", "there", "he", "him", "his", "she", "her", "we", "our", "you",
            "your", "i", "me", "my", "if", "so", "such", "some", "any", "each", "other", "also", "one", "ones",
            "s", "t", "up", "out", "then", "both", "all", "very", "just", "not", "no");

    private Words() {}

    /** Maximal runs of letters and digits (keeping inner hyphens and apostrophes out), original case. */
    public static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            while (i < n && !Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(text.substring(start, i));
            }
        }
        return out;
    }

    public static String lower(String word) {
        return word.toLowerCase(Locale.ROOT);
    }

    public static boolean isStopword(String word) {
        return STOPWORDS.contains(lower(word));
    }

    /** A light plural/verb-ending stem so that "engines" meets "engine" and "located" meets "locate". */
    public static String stem(String word) {
        String w = lower(word);
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 4 && w.endsWith("ed") && !w.endsWith("eed")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 5 && w.endsWith("ing")) {
            return w.substring(0, w.length() - 3);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    /** Stems of the content words of a text, in order, repeats kept. */
    public static List<String> contentStems(String text) {
        List<String> out = new ArrayList<>();
        for (String token : tokens(text)) {
            if (!isStopword(token)) {
                out.add(stem(token));
            }
        }
        return out;
    }
}

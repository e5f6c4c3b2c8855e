package io.raglog.simulator.text;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces. */
public final class AnswerMatch {

    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{Punct}\\u2018\\u2019\\u201c\\u201d\\u2013\\u2014]");
    private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private AnswerMatch() {}

    public static String normalize(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        s = PUNCTUATION.matcher(s).replaceAll(" ");
        s = ARTICLES.matcher(s).replaceAll(" ");
        return SPACES.matcher(s).replaceAll(" ").strip();
    }

    /** True when the answer states one of the accepted answers (as a whole-word run inside it). */
    public static boolean contains(String answer, List<String> accepted) {
        String a = " " + normalize(answer) + " ";
        for (String expected : accepted) {
            String e = normalize(expected);
            if (!e.isEmpty() && a.contains(" " + e + " ")) {
                return true;
            }
        }
        return false;
    }
}

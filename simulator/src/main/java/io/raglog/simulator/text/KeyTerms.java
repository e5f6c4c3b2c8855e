package io.raglog.simulator.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The names, numbers and dates of a text: what a rewrite must not lose (the RAGLog rule check), and what the fault
 * injector drops or swaps.
 */
public final class KeyTerms {

    public enum Kind { NAME, NUMBER, DATE }

    public record Term(String text, Kind kind) {}

    private static final Set<String> MONTHS = Set.of("january", "february", "march", "april", "may", "june", "july",
            "august", "september", "october", "november", "december");

    /** Capitalised words that start questions or sentences without naming anything. */
    private static final Set<String> NOT_NAMES = Set.of("what", "who", "whom", "whose", "when", "where", "why",
            "how", "which", "in", "on", "at", "the", "a", "an", "of", "for", "to", "by", "from", "with", "during",
            "after", "before", "is", "are", "was", "were", "did", "does", "do", "can", "could", "would", "should",
            "name", "list", "give", "along", "besides", "according", "since", "if", "under", "as", "other", "into",
            "about", "i", "it", "its", "this", "that", "these", "those", "there", "they", "he", "she", "has", "have",
            "had", "will", "not", "between", "whether", "although", "approximately", "roughly", "around");

    private KeyTerms() {}

    public static List<Term> of(String text) {
        List<Term> out = new ArrayList<>();
        for (String token : Words.tokens(text)) {
            Kind kind = kindOf(token);
            if (kind != null && out.stream().noneMatch(t -> t.text().equals(token))) {
                out.add(new Term(token, kind));
            }
        }
        return out;
    }

    public static Kind kindOf(String token) {
        String lower = token.toLowerCase(Locale.ROOT);
        if (MONTHS.contains(lower) && Character.isUpperCase(token.charAt(0))) {
            return Kind.DATE;
        }
        if (isYear(token)) {
            return Kind.DATE;
        }
        if (token.chars().anyMatch(Character::isDigit)) {
            return Kind.NUMBER;
        }
        if (Character.isUpperCase(token.charAt(0)) && token.length() > 1 && !NOT_NAMES.contains(lower)) {
            return Kind.NAME;
        }
        return null;
    }

    /**
     * Capitalised words that are capitalised for being names, not for starting a sentence ("Similarly", "However"):
     * only those found after a word that does not end a sentence.
     */
    public static List<String> midSentenceNames(String text) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = MID_SENTENCE_NAME.matcher(text);
        while (m.find()) {
            String word = m.group(1);
            if (kindOf(word) == Kind.NAME && !out.contains(word)) {
                out.add(word);
            }
        }
        return out;
    }

    private static final java.util.regex.Pattern MID_SENTENCE_NAME =
            java.util.regex.Pattern.compile("[\\p{Ll}\\p{N},;:)]\\s+(\\p{Lu}[\\p{L}'-]+)");

    public static boolean isYear(String token) {
        if (token.length() != 4 || !token.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int year = Integer.parseInt(token);
        return year >= 1000 && year <= 2100;
    }

    /** The key terms of {@code original} that {@code rewritten} no longer contains (case-insensitive). */
    public static List<Term> lost(String original, String rewritten) {
        List<String> kept = new ArrayList<>();
        for (String token : Words.tokens(rewritten)) {
            kept.add(token.toLowerCase(Locale.ROOT));
        }
        List<Term> lost = new ArrayList<>();
        for (Term term : of(original)) {
            if (!kept.contains(term.text().toLowerCase(Locale.ROOT))) {
                lost.add(term);
            }
        }
        return lost;
    }
}

package io.raglog.checks;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The kind of answer a question asks for, from its question words: a time, a place, a person, a count, a reason, a
 * manner. People rephrase the words but keep the kind ("when" becomes "what year", "who" becomes "which person"); a
 * question on the same topic that asks for another kind is another question. Null when the words do not say (a bare
 * "what" or "which", a keyword query), and nothing is then compared.
 *
 * <p>Two readings: {@link #of} takes the first question word anywhere ("harvard was founded when", as people re-ask in
 * a search box), {@link #asked} only one that opens the question, after at most a preposition ("In what year …",
 * "About how many …"). The second is for judging an answer: in "What experiences acceleration when a force is
 * applied?" the "when" joins two clauses and asks for no time.
 */
public enum AnswerType {
    TIME, PLACE, PERSON, COUNT, REASON, MANNER, DURATION;

    private static final Set<String> TIME_NOUNS = Set.of("year", "years", "date", "time", "century", "decade",
            "period", "day", "month", "era", "point");
    private static final Set<String> PLACE_NOUNS = Set.of("place", "location", "city", "country", "town", "region",
            "area", "state", "continent");
    private static final Set<String> PERSON_NOUNS = Set.of("person", "man", "woman", "people", "individual");
    private static final Set<String> COUNT_NOUNS = Set.of("number", "amount", "quantity", "percentage", "percent");

    /** Numbers in words, and words that give a count without one. */
    private static final Set<String> COUNT_WORDS = Set.of("one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fifteen", "twenty", "thirty", "forty", "fifty",
            "sixty", "seventy", "eighty", "ninety", "hundred", "hundreds", "thousand", "thousands", "million",
            "millions", "billion", "billions", "trillion", "dozen", "dozens", "several", "many", "few", "half", "none",
            "single", "couple", "both", "all", "most", "majority", "minority", "percent", "once", "twice", "no");
    /** Words that place a time without a number: periods, months, days, seasons, times of day, relations in time. */
    private static final Set<String> TIME_WORDS = Set.of("century", "centuries", "decade", "decades", "year",
            "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours", "minute", "minutes", "second",
            "seconds", "era", "age", "period", "dynasty", "reign", "war", "ago", "before", "after", "during", "since",
            "until", "early", "late", "mid", "modern", "ancient", "medieval", "today", "now", "currently", "night",
            "morning", "evening", "noon", "afternoon", "spring", "summer", "autumn", "fall", "winter", "january",
            "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
            "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "annually",
            "yearly", "daily", "weekly", "monthly", "bc", "ad", "bce", "ce", "when", "while", "beginning", "end",
            "start", "soon", "immediately", "later", "earlier", "previously", "recently", "always", "never");

    /** Question words that may open a clause setting the scene rather than ask: "When X happens, what …?". */
    private static final Set<String> SCENE_SETTING = Set.of("when", "where");

    /** Words that may come before the question word that opens a question: "in what year", "roughly how many". */
    private static final Set<String> LEADING = Set.of("in", "at", "on", "by", "about", "around", "during", "for",
            "from", "to", "until", "since", "of", "roughly", "approximately", "and", "so");

    /** The kind the first question word anywhere asks for; null when there is none or it does not say. */
    public static AnswerType of(String question) {
        List<String> w = Terms.words(question);
        for (int i = 0; i < w.size(); i++) {
            if (isQuestionWord(w.get(i))) {
                return at(w, i);
            }
        }
        return null;
    }

    /**
     * The kind the question word opening the question asks for; null when it opens with none or it does not say. A
     * "when" or "where" that opens a clause the question then asks about ("When forces act on a body, what must you
     * account for?", "When sorting takes long, this is what case?") sets the scene: the question word after the
     * clause's comma asks.
     */
    public static AnswerType asked(String question) {
        List<String> w = Terms.words(question);
        for (int i = 0; i < w.size() && i < 3; i++) {
            if (isQuestionWord(w.get(i))) {
                int comma = question.indexOf(',');
                if (SCENE_SETTING.contains(w.get(i)) && comma >= 0) {
                    List<String> asked = Terms.words(question.substring(comma + 1));
                    for (int j = 0; j < asked.size(); j++) {
                        if (isQuestionWord(asked.get(j))) {
                            return at(asked, j);
                        }
                    }
                }
                return at(w, i);
            }
            if (!LEADING.contains(w.get(i))) {
                return null;
            }
        }
        return null;
    }

    /**
     * Whether an answer shows the form this kind must take: a count a number (in digits or words), a time or a duration
     * a number or a word of time. Null for the kinds whose form a word list cannot tell (a place, a person, a reason, a
     * manner): a name or a clause may be either.
     */
    public Boolean shownBy(String answer) {
        if (this != TIME && this != COUNT && this != DURATION) {
            return null;
        }
        for (String word : Terms.words(answer)) {
            if (hasDigit(word) || COUNT_WORDS.contains(word) || this != COUNT && TIME_WORDS.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** The kind as a fact's subject: {@code time}, {@code count}, … */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What the kind asks for, as a finding says it: "a time", "a number", "a duration". */
    public String describe() {
        return switch (this) {
            case TIME -> "a time";
            case COUNT -> "a number";
            case DURATION -> "a duration";
            case PLACE -> "a place";
            case PERSON -> "a person";
            case REASON -> "a reason";
            case MANNER -> "a manner";
        };
    }

    /** Whether the word holds a digit: a number, a year, "n2", "4th". */
    static boolean hasDigit(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (Character.isDigit(word.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isQuestionWord(String word) {
        return switch (word) {
            case "when", "where", "whereabouts", "who", "whom", "whose", "why", "how", "what", "which" -> true;
            default -> false;
        };
    }

    private static AnswerType at(List<String> w, int i) {
        String next = i + 1 < w.size() ? w.get(i + 1) : "";
        String after = i + 2 < w.size() ? w.get(i + 2) : "";
        switch (w.get(i)) {
            case "when":
                return TIME;
            case "where", "whereabouts":
                return PLACE;
            case "who", "whom", "whose":
                return PERSON;
            case "why":
                return REASON;
            case "how":
                if (next.equals("many") || next.equals("much") || next.equals("numerous")) {
                    return COUNT;
                }
                if (next.equals("long")) {
                    return DURATION;
                }
                if (next.equals("come")) {
                    return REASON;
                }
                if (Set.of("far", "old", "big", "large", "tall", "high", "often").contains(next)) {
                    return null; // a measure of its own kind; too rare to tell apart here
                }
                return MANNER;
            case "what", "which":
                String noun = next.equals("exact") || next.equals("exactly") ? after : next;
                if (TIME_NOUNS.contains(noun)) {
                    return TIME;
                }
                if (PLACE_NOUNS.contains(noun)) {
                    return PLACE;
                }
                if (PERSON_NOUNS.contains(noun)) {
                    return PERSON;
                }
                if (COUNT_NOUNS.contains(noun)) {
                    return COUNT;
                }
                if (noun.equals("reason")) {
                    return REASON;
                }
                return null;
            default:
                return null;
        }
    }
}

package io.raglog.reask;

import io.raglog.checks.Terms;
import java.util.List;
import java.util.Set;

/**
 * The kind of answer a question asks for, from its question words: a time, a place, a person, a count, a reason, a
 * manner. People rephrase the words but keep the kind ("when" becomes "what year", "who" becomes "which person"); a
 * question on the same topic that asks for another kind is another question. Null when the words do not say (a bare
 * "what" or "which", a keyword query), and nothing is then compared.
 */
enum AnswerType {
    TIME, PLACE, PERSON, COUNT, REASON, MANNER, DURATION;

    private static final Set<String> TIME_NOUNS = Set.of("year", "years", "date", "time", "century", "decade",
            "period", "day", "month", "era", "point");
    private static final Set<String> PLACE_NOUNS = Set.of("place", "location", "city", "country", "town", "region",
            "area", "state", "continent");
    private static final Set<String> PERSON_NOUNS = Set.of("person", "man", "woman", "people", "individual");
    private static final Set<String> COUNT_NOUNS = Set.of("number", "amount", "quantity", "percentage", "percent");

    static AnswerType of(String question) {
        List<String> w = Terms.words(question);
        for (int i = 0; i < w.size(); i++) {
            String word = w.get(i);
            String next = i + 1 < w.size() ? w.get(i + 1) : "";
            String after = i + 2 < w.size() ? w.get(i + 2) : "";
            switch (word) {
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
                    break;
            }
        }
        return null;
    }
}

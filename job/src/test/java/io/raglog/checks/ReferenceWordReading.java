package io.raglog.checks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How a text's content stems and its numbers' hashes were read before {@link WordFacts} served the content stems and
 * the numbers were hashed in place (frozen copies, for {@link WordReadingSimulatedTest} to hold the new to).
 */
final class ReferenceWordReading {

    private ReferenceWordReading() {}

    /** Each word copied out, lower-cased, looked up among the stop words and stemmed, in order. */
    static List<String> contentStems(String text) {
        Set<String> out = new LinkedHashSet<>();
        Terms.scanWords(text, 0, text.length(), (start, end) -> {
            String word = Terms.lowerCaseWord(text, start, end);
            if (Terms.isContentWord(word)) {
                out.add(Terms.stem(word));
            }
        });
        return List.copyOf(out);
    }

    /** The hashes of the normalised numbers, each number copied out and normalised into a set first. */
    static long[] numberHashes(String text) {
        return WordHash.sortedOf(Terms.numbers(text));
    }
}

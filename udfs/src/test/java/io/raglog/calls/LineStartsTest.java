package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link LineStarts#matches} gives the matches a matcher over the region gives, with the thread's matchers reused from
 * one search to the next: held here to a fresh matcher's {@code find()} loop on random texts, with searches for the
 * same pattern running at once (one inside another, as {@link ContextBlocks} nests them) and searches left unfinished.
 */
public class LineStartsTest {

    private static final Pattern[] PATTERNS = {PromptPatterns.SEPARATOR_LINE, PromptPatterns.CONTEXT_LABEL,
        PromptPatterns.QUESTION_LABEL, PromptPatterns.ANSWER_LABEL, PromptPatterns.PASSAGE_MARKER,
        PromptPatterns.CONTENT_MARKER};

    private static final String[] PIECES = {"\n", "\n\n", "\r\n", "\r", "\u2028", " ", "---", "===", "Context:",
        "Question: ", "Answer:", "[1] ", "Document 2:", "Content: ", "text", "é", "😀", "\t"};

    /** Each match as {start, end}, found by a matcher of its own. */
    private static List<List<Integer>> reference(Pattern pattern, String text, int from) {
        Matcher m = pattern.matcher(text).region(from, text.length());
        List<List<Integer>> out = new ArrayList<>();
        while (m.find()) {
            out.add(List.of(m.start(), m.end()));
        }
        return out;
    }

    private static List<List<Integer>> all(LineStarts.Matches matches) {
        List<List<Integer>> out = new ArrayList<>();
        while (matches.find()) {
            out.add(List.of(matches.start(), matches.end()));
        }
        return out;
    }

    @Test
    void shouldFindWhatAFreshMatcherFindsWithSearchesNestedAndLeftUnfinished() {
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int pieces = random.nextInt(0, 25);
            for (int k = 0; k < pieces; k++) {
                sb.append(PIECES[random.nextInt(PIECES.length)]);
            }
            String text = sb.toString();
            LineStarts lines = new LineStarts(text);
            Pattern pattern = PATTERNS[random.nextInt(PATTERNS.length)];
            int from = random.nextInt(0, text.length() + 1);
            if (random.nextInt(4) == 0) {
                lines.matches(PATTERNS[random.nextInt(PATTERNS.length)], 0).find(); // left unfinished
            }
            LineStarts.Matches outer = lines.matches(pattern, from);
            List<List<Integer>> found = new ArrayList<>();
            while (outer.find()) {
                found.add(List.of(outer.start(), outer.end()));
                int innerFrom = outer.end();
                // the same pattern searched again while the outer search is on, as a block's closing separator is
                assertThat(all(lines.matches(pattern, innerFrom))).as("case %d, inner from %d", i, innerFrom)
                        .isEqualTo(reference(pattern, text, innerFrom));
            }
            assertThat(outer.find()).isFalse();
            assertThat(found).as("case %d: %s from %d in %s", i, pattern, from, text)
                    .isEqualTo(reference(pattern, text, from));
        }
    }
}

package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link IndexBuilding#reason(int[])} against the rule as it was written over boxed lengths (issue #27). */
class IndexBuildingTest {

    /** The rule before it took an int array: a sorted copy of the boxed lengths. */
    private static String referenceReason(List<Integer> lengths) {
        if (lengths.size() > IndexBuilding.MAX_QUERY_TEXTS) {
            return "index building: " + lengths.size() + " texts in one embeddings call (more than "
                    + IndexBuilding.MAX_QUERY_TEXTS + ", a query embeds one to a few)";
        }
        if (lengths.size() >= 2) {
            List<Integer> sorted = new ArrayList<>(lengths);
            Collections.sort(sorted);
            int median = sorted.get(sorted.size() / 2);
            if (median >= IndexBuilding.PASSAGE_MEDIAN_CHARS) {
                return "index building: " + lengths.size() + " passage-length texts (median " + median
                        + " characters, queries stay under " + IndexBuilding.PASSAGE_MEDIAN_CHARS + ")";
            }
        }
        if (lengths.size() == 1 && lengths.get(0) >= IndexBuilding.SINGLE_DOCUMENT_CHARS) {
            return "index building: one document-length text (" + lengths.get(0) + " characters)";
        }
        return null;
    }

    @Test
    void shouldGiveTheReasonTheBoxedRuleGave() {
        Random r = new Random(27);
        int reasons = 0;
        for (int round = 0; round < 20_000; round++) {
            int n = r.nextInt(20);
            int[] lengths = new int[n];
            List<Integer> boxed = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                lengths[i] = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(200);
                    case 1 -> 400 + r.nextInt(200);
                    case 2 -> IndexBuilding.SINGLE_DOCUMENT_CHARS - 2 + r.nextInt(4);
                    default -> r.nextInt(10_000);
                };
                boxed.add(lengths[i]);
            }
            int[] given = lengths.clone();
            String reason = IndexBuilding.reason(lengths);
            assertThat(reason).as(boxed.toString()).isEqualTo(referenceReason(boxed));
            assertThat(lengths).isEqualTo(given);
            reasons += reason == null ? 0 : 1;
        }
        assertThat(reasons).isBetween(1000, 19_000);
    }
}

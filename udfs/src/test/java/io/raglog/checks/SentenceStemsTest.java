package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SentenceStemsTest {

    @Test
    void shouldKeepEachSentencesDistinctStemsAndCountWhatItSharesWithAnother() {
        Random random = new Random(3);
        SentenceStems.Builder builder = new SentenceStems.Builder(); // reused, as each thread's is
        for (int round = 0; round < 200; round++) {
            int count = random.nextInt(6);
            builder.start(count);
            List<TreeSet<Long>> expected = new ArrayList<>();
            for (int s = 0; s < count; s++) {
                TreeSet<Long> sentence = new TreeSet<>();
                int n = random.nextInt(random.nextInt(10) == 0 ? 600 : 15); // some have none, a few grow the buffer
                for (int i = 0; i < n; i++) {
                    long stem = random.nextInt(30) - 10; // repeats within a sentence and across sentences
                    builder.add(stem);
                    sentence.add(stem);
                }
                builder.endSentence();
                expected.add(sentence);
            }
            SentenceStems stems = builder.build();
            assertThat(stems.count()).isEqualTo(count);
            for (int s = 0; s < count; s++) {
                assertThat(stems.stemsOf(s)).containsExactly(toArray(expected.get(s)));
                assertThat(stems.size(s)).isEqualTo(expected.get(s).size());
                TreeSet<Long> question = new TreeSet<>();
                for (int i = random.nextInt(12); i > 0; i--) {
                    question.add((long) random.nextInt(30) - 10);
                }
                TreeSet<Long> shared = new TreeSet<>(question);
                shared.retainAll(expected.get(s));
                assertThat(stems.shared(s, toArray(question))).isEqualTo(shared.size());
            }
        }
    }

    private static long[] toArray(TreeSet<Long> set) {
        return set.stream().mapToLong(Long::longValue).toArray();
    }
}

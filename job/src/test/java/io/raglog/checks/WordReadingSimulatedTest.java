package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.SimulatedRuns;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.simulator.SimulatorOptions;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The content stems {@link WordFacts} serves and the numbers a {@link TextIndex} hashes in place are what the former
 * reading gave ({@link ReferenceWordReading}), on every text of simulated runs: questions, rewrites, passages, answers.
 */
class WordReadingSimulatedTest {

    @Test
    void shouldReadEverySimulatedTextsContentStemsAndNumbersAsBefore() throws Exception {
        List<String> texts = new ArrayList<>(simulatedTexts());
        assertThat(texts).hasSizeGreaterThan(1_000);
        Field numbers = TextIndex.class.getDeclaredField("numbers");
        numbers.setAccessible(true);
        int withNumbers = 0;
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            // every other text indexed first, so that the words its index taught the thread serve its stems
            if (i % 2 == 0) {
                TextIndex.of(text);
            }
            assertThat(Terms.contentStems(text)).as(text)
                    .containsExactlyElementsOf(ReferenceWordReading.contentStems(text));
            long[] expected = ReferenceWordReading.numberHashes(text);
            assertThat((long[]) numbers.get(TextIndex.of(text))).as(text).containsExactly(expected);
            withNumbers += expected.length > 0 ? 1 : 0;
        }
        assertThat(withNumbers).as("texts holding a number").isGreaterThan(100);
    }

    private static Set<String> simulatedTexts() {
        Set<String> texts = new LinkedHashSet<>();
        for (Run run : SimulatedRuns.linked(SimulatorOptions.of("all", 400, 31))) {
            addText(texts, RunTexts.question(run));
            RunTexts.rewrites(run).forEach(r -> addText(texts, r));
            RunTexts.allPassages(run).stream().map(Passage::text).forEach(t -> addText(texts, t));
            if (run.stages().generate() != null) {
                addText(texts, run.stages().generate().answer());
            }
        }
        return texts;
    }

    private static void addText(Set<String> texts, String text) {
        if (text != null) {
            texts.add(text);
        }
    }
}

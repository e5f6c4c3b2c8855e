package io.raglog.reask;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.SharedEmbedder;
import io.raglog.schemas.Label;
import io.raglog.simulator.corpus.ArticleSplits;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The goal of re-ask detection: precision at least 0.9 and recall at least 0.8 on simulated sessions of the TEST
 * split's articles, with the default settings ({@link ReAskThresholdTest} chose them on the training split). The
 * figures are printed, with those on the hard negatives: questions on the same article as the one just answered.
 *
 * <p>Measured on five samples of 3,000 runs together. One sample's precision moves by about 0.02 with its seed (0.892
 * to 0.921 over seeds 2 to 6 on 2026-12-05): a goal held on one sample holds or fails by which same-paragraph
 * follow-ups it happened to draw, as seed 2's did (0.914, then 0.885 with the rules unchanged) when a change to the
 * simulator's prompts redrew them.
 */
class ReAskGoalTest {

    static final long[] TEST_SEEDS = {2, 3, 4, 5, 6};

    @Test
    void shouldFindReAsksOnArticlesTheThresholdNeverSaw() {
        ReAskSettings settings = ReAskSettings.defaults();
        SimulatedSessions.Score score = new SimulatedSessions.Score(0, 0, 0, 0, 0, 0, 0);
        int runs = 0;
        // the shared MiniLM, as the function acquires it when the settings weigh the cosine
        CachedEmbedder embedder = SharedEmbedder.acquire(SharedEmbedder.DEFAULT_CACHE_ENTRIES);
        try {
            for (long seed : TEST_SEEDS) {
                SimulatedSessions test = SimulatedSessions.of(ArticleSplits.TEST, seed);
                SimulatedSessions.Score sample = test.score(test.replay(new ReAskRules(settings,
                        new QuestionSimilarity(embedder, settings.embeddingWeight()))));
                System.out.println("re-asks on the test split, seed " + seed + ": " + sample);
                score = score.plus(sample);
                runs += test.labels.size();
            }
        } finally {
            SharedEmbedder.release();
        }
        System.out.println("re-asks on the test split (" + runs + " runs, " + settings + "): " + score);

        assertThat(score.truePositives() + score.falseNegatives()).as("re-asks in the samples").isGreaterThan(2000);
        assertThat(score.followUps()).as("same-article follow-ups in the samples").isGreaterThan(1500);
        assertThat(score.precision()).isGreaterThanOrEqualTo(0.9);
        assertThat(score.recall()).isGreaterThanOrEqualTo(0.8);
        assertThat(score.hardNegativePrecision()).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void shouldMeasureOnArticlesNoTrainingSessionAsked() {
        Set<String> trainArticles = new HashSet<>(ArticleSplits.articles(ArticleSplits.TRAIN));
        Set<String> testArticles = new HashSet<>(ArticleSplits.articles(ArticleSplits.TEST));
        assertThat(trainArticles).doesNotContainAnyElementsOf(testArticles);
        for (long seed : TEST_SEEDS) {
            for (Label l : SimulatedSessions.of(ArticleSplits.TEST, seed).labels) {
                for (String chunk : l.evidenceChunkIds()) {
                    assertThat(trainArticles).noneMatch(a -> chunk.startsWith(a + "-"));
                }
            }
        }
    }
}

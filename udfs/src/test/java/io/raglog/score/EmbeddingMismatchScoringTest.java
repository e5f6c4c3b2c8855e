package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.RunBuilder;
import io.raglog.schemas.EmbeddingMismatch;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class EmbeddingMismatchScoringTest {

    private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");
    private static final EmbeddingMismatch MISMATCH = new EmbeddingMismatch("support-bot", "text-embedding-3-small",
            1536, "text-embedding-ada-002", 1536, EmbeddingMismatch.SEEN,
            "the question was embedded with text-embedding-ada-002 (1536-d) but the index 'support-bot' holds "
                    + "text-embedding-3-small (1536-d) vectors");

    @Test
    void shouldFlagTheEmbedStageWithTheMismatchAndItsOwnRepairHintWhateverTheModelsSay() throws Exception {
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.99, 0.99, 0.99, 0.99, 0.99))) {
            var present = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
            Verdict sound = new Scorer(bundle).score(new ScoringInput(FixedBundles.features("run-s", 0.0, null),
                    present, "x"), AT);
            assertThat(sound.flaggedStages()).isEmpty();

            Verdict flagged = new Scorer(bundle).score(new ScoringInput(FixedBundles.features("run-m", 0.0, null),
                    present, "x", MISMATCH), AT);
            assertThat(flagged.flaggedStages()).containsExactly(Stage.EMBED);
            assertThat(flagged.queued()).isTrue();
            assertThat(flagged.queueReasons()).containsExactly("embed");
            assertThat(flagged.stages().embed().flagged()).isTrue();
            assertThat(flagged.stages().embed().evidence()).first().asString().contains("text-embedding-ada-002");
            assertThat(flagged.stages().embed().repairHint())
                    .startsWith("Re-embed the index 'support-bot' with text-embedding-ada-002, or query with "
                            + "text-embedding-3-small");
            // the probability is still the models' own: the flag is the mismatch's, not theirs
            assertThat(flagged.stages().embed().probability()).isEqualTo(sound.stages().embed().probability());
        }
    }

    @Test
    void shouldCarryTheRunsMismatchIntoTheScoringInput() {
        Run run = RunBuilder.healthy().build().withEmbeddingMismatch(MISMATCH);
        ScoringInput input = ScoringInput.of(run, FixedBundles.features(run.runId(), 0.0, null));
        assertThat(input.embeddingMismatch()).isEqualTo(MISMATCH);
        assertThat(run.withKnownPassages(null).embeddingMismatch()).isEqualTo(MISMATCH);
    }
}

package io.raglog.score.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Stage;
import io.raglog.score.ModelBundle;
import io.raglog.score.ScoringInput;
import io.raglog.score.Scorer;
import io.raglog.score.TestBundles;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedBundlesTest {

    private static final Instant NOW = Instant.parse("2026-12-03T08:00:00Z");

    @Test
    void shouldLetTheTasksOfAJvmScoreWithOneCopyThatScoresAsTheSavedBundle(@TempDir Path dir) {
        List<ScoringInput> inputs = TestBundles.scoringInputs(20, 5);
        BundleLocation location = BundleLocation.directory(dir);
        try (ModelBundle saved = TestBundles.fixedBundle()) {
            saved.save(dir);
            try (SharedBundles.Lease scoring = SharedBundles.acquire(location);
                    SharedBundles.Lease gate = SharedBundles.acquire(BundleLocation.directory(dir))) {
                assertThat(gate.bundle()).isSameAs(scoring.bundle());
                assertThat(scoring.bundle().id()).isEqualTo(saved.id());
                Scorer shared = new Scorer(scoring.bundle());
                Scorer direct = new Scorer(saved);
                for (ScoringInput input : inputs) {
                    assertThat(shared.score(input, NOW)).isEqualTo(direct.score(input, NOW));
                }
            }
        }
    }

    @Test
    void shouldRefuseToSaveOrDeriveFromABundleLoadedForScoring(@TempDir Path dir) {
        try (ModelBundle saved = TestBundles.fixedBundle()) {
            saved.save(dir);
        }
        try (SharedBundles.Lease lease = SharedBundles.acquire(BundleLocation.directory(dir))) {
            ModelBundle bundle = lease.bundle();
            assertThatThrownBy(() -> bundle.save(dir.resolve("copy")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("loaded for scoring");
            assertThatThrownBy(() -> bundle.withThresholds(Map.of(Stage.EMBED, 0.4, Stage.RETRIEVE, 0.4), "test"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("ModelBundle.load");
        }
    }

    @Test
    void shouldCloseTheBundleWhenTheLastTaskLetsGoAndReadTheFilesAgainAfter(@TempDir Path dir) {
        BundleLocation location = BundleLocation.directory(dir);
        String first;
        try (ModelBundle saved = TestBundles.fixedBundle()) {
            saved.save(dir);
            first = saved.id();
        }
        SharedBundles.Lease one = SharedBundles.acquire(location);
        SharedBundles.Lease two = SharedBundles.acquire(location);
        one.close();
        one.close(); // a second close of one lease must not take the other task's
        assertThat(SharedBundles.holds(location)).isTrue();
        assertThat(new Scorer(two.bundle()).score(TestBundles.scoringInputs(1, 9).get(0), NOW)).isNotNull();
        two.close();
        assertThat(SharedBundles.holds(location)).isFalse();

        // the directory now holds another bundle (a job restarted after its volume changed): it is read, not the old
        Map<Stage, Double> lower = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            lower.put(stage, 0.3);
        }
        try (ModelBundle fixed = TestBundles.fixedBundle();
                ModelBundle other = fixed.withThresholds(lower, "another bundle in the same directory")) {
            other.save(dir);
            try (SharedBundles.Lease lease = SharedBundles.acquire(location)) {
                assertThat(lease.bundle().id()).isEqualTo(other.id()).isNotEqualTo(first);
            }
        }
    }
}

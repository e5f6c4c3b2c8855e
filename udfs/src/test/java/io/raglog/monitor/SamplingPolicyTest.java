package io.raglog.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.HttpError;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplingPolicyTest {

    private static Run run(String pipeline, int i, boolean incomplete, List<HttpError> errors) {
        return new Run(SchemaIds.RUN_V1, RunIds.of(pipeline, "trace-" + i, null), pipeline, "trace-" + i, "q?",
                Instant.EPOCH, Instant.EPOCH, incomplete, incomplete ? "no generator call" : null, List.of(), errors,
                new RunStages(RewriteStage.absent(), EmbedStage.absent(), RetrieveStage.absent(), RerankStage.absent(),
                        GenerateStage.absent()));
    }

    @Test
    void shouldSampleTheSameRunsEveryTimeAndNearTheConfiguredRate() {
        SamplingPolicy policy = new SamplingPolicy(0.25, Map.of("chatty", 0.05));
        int sampled = 0;
        int chattySampled = 0;
        for (int i = 0; i < 20_000; i++) {
            Run r = run("support", i, false, List.of());
            boolean first = policy.sampled(r);
            // a replay of the same calls derives the same run id, so it samples the same runs
            assertThat(new SamplingPolicy(0.25, Map.of("chatty", 0.05)).sampled(run("support", i, false, List.of())))
                    .isEqualTo(first);
            sampled += first ? 1 : 0;
            chattySampled += policy.sampled(run("chatty", i, false, List.of())) ? 1 : 0;
        }
        assertThat(sampled / 20_000.0).isBetween(0.23, 0.27);
        assertThat(chattySampled / 20_000.0).isBetween(0.04, 0.06);
    }

    @Test
    void shouldAlwaysCheckRunsWithHttpErrors() {
        SamplingPolicy none = new SamplingPolicy(0.0, Map.of());
        assertThat(none.sampled(run("p", 1, false, List.of()))).isFalse();
        assertThat(none.sampled(run("p", 3, false, List.of(new HttpError("c", Stage.GENERATE, 429))))).isTrue();
    }

    @Test
    void shouldNeverCheckIncompleteRunsWhateverTheRate() {
        SamplingPolicy all = SamplingPolicy.CHECK_EVERYTHING;
        assertThat(all.sampled(run("p", 1, false, List.of()))).isTrue();
        assertThat(all.sampled(run("p", 2, true, List.of()))).isFalse();
        // a generator that failed for good: an HTTP error, and still no answer to check
        assertThat(all.sampled(run("p", 3, true, List.of(new HttpError("c", Stage.GENERATE, 503))))).isFalse();
    }

    @Test
    void shouldRefuseRatesOutsideZeroToOne() {
        assertThatThrownBy(() -> new SamplingPolicy(1.5, Map.of())).hasMessageContaining("default");
        assertThatThrownBy(() -> new SamplingPolicy(0.5, Map.of("p", -0.1))).hasMessageContaining("p");
    }
}

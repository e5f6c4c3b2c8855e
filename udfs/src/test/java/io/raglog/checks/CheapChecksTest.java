package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.schemas.Run;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheapChecksTest {

    @Test
    void shouldLeaveVectorFeaturesMissingAndKeepRuleFeaturesWhenVectorChecksAreOff() {
        CheckedRun checked = CheapChecks.rulesOnly().apply(healthy().build());

        assertThat(checked.features()).doesNotContainKeys(RETRIEVE_TOP_SIM, RERANK_TOP_SIM_GAP,
                GENERATE_ANSWER_CONTEXT_SIM, REWRITE_SIM_QUESTION);
        assertThat(checked.features()).isNotEmpty();
    }

    @Test
    void shouldGiveTheSameFeaturesAndFindingsWhenTheVectorsRunApartFromTheRules() {
        try (MiniLmEmbedder model = new MiniLmEmbedder()) {
            CheapChecks withVectors = new CheapChecks(new CachedEmbedder(model, 100));
            for (Run run : List.of(healthy().build(),
                    healthy().reranked(RunBuilder.WEATHER).answer("It was sunny in 2023.").build(),
                    healthy().rewrites("cash position").build())) {
                CheckedRun together = withVectors.apply(run);
                CheckedRun apart = withVectors.addVectors(CheapChecks.rulesOnly().apply(run));

                assertThat(apart.features()).containsExactlyEntriesOf(together.features());
                assertThat(apart.findings()).isEqualTo(together.findings());
                assertThat(together.features()).containsKey(RETRIEVE_TOP_SIM);
            }
        }
    }

    @Test
    void shouldReadTheVectorChecksSwitchFromTheEnvironmentDefaultingToOn() {
        assertThat(ChecksSettings.fromEnv(Map.of()).vectorChecks()).isTrue();
        assertThat(ChecksSettings.fromEnv(Map.of(ChecksSettings.VECTOR_CHECKS, "false")).vectorChecks()).isFalse();
    }
}

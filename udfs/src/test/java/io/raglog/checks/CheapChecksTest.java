package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;

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
    void shouldReadTheVectorChecksSwitchFromTheEnvironmentDefaultingToOn() {
        assertThat(ChecksSettings.fromEnv(Map.of()).vectorChecks()).isTrue();
        assertThat(ChecksSettings.fromEnv(Map.of(ChecksSettings.VECTOR_CHECKS, "false")).vectorChecks()).isFalse();
    }
}

package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import io.raglog.simulator.pipeline.RelevanceGate;
import io.raglog.simulator.profile.Profile;
import io.raglog.simulator.profile.Profiles;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The held-out profile with a relevance gate: a run its gate stopped ends at the gate's call (no generator), and the
 * gate's errors are labeled where they happen: a stop of a prompt that held the answer is the run's generation fault.
 */
class GatedProfileTest {

    static final String GATED = "unseen-gated-claude";

    @TempDir
    static Path dir;

    static SimulatedLogs logs;

    @BeforeAll
    static void simulate() {
        logs = SimulatedLogs.simulate(SimulatorOptions.of(GATED, 300, 8), dir);
    }

    private static boolean stopped(Label label) {
        return RelevanceGate.INSUFFICIENT.equals(label.answer());
    }

    /** The user message of an Anthropic Messages call. */
    private static String prompt(JsonNode call) {
        return call.get("request").get("body").get("messages").get(0).get("content").asText();
    }

    private static String model(JsonNode call) {
        return call.get("request").get("body").get("model").asText();
    }

    @Test
    void shouldKeepTheGatedProfileOutOfAll() {
        assertThat(Profiles.all()).extracting(Profile::name).doesNotContain(GATED);
        assertThat(Profiles.select(GATED)).extracting(Profile::name).containsExactly(GATED);
        assertThat(logs.labels).hasSize(300).extracting(Label::profile).containsOnly(GATED);
    }

    @Test
    void shouldEndAStoppedRunAtItsGateAndAnAnsweredOneAtItsGenerator() {
        int stopped = 0;
        for (Label label : logs.labels) {
            JsonNode last = logs.callsById.get(label.generatorEventId());
            assertThat(last).as("the call that closed %s", label.runId()).isNotNull();
            if (stopped(label)) {
                stopped++;
                assertThat(model(last)).isEqualTo("claude-3-5-haiku-20241022");
                assertThat(prompt(last)).startsWith("Given this query: \"" + label.question() + "\"")
                        .endsWith("Respond with only: SUFFICIENT or INSUFFICIENT");
                assertThat(last.get("response").get("body").get("content").get(0).get("text").asText())
                        .isEqualTo(RelevanceGate.INSUFFICIENT);
                // no answer was generated for this question
                assertThat(logs.calls).filteredOn(c -> c.get("request").get("url").asText().endsWith("/v1/messages")
                        && model(c).startsWith("claude-sonnet") && prompt(c).endsWith(label.question())).isEmpty();
            } else {
                assertThat(model(last)).startsWith("claude-sonnet");
            }
        }
        assertThat(stopped).isBetween(30, 270);
    }

    @Test
    void shouldLabelAStopOfAPromptThatHeldTheAnswerAsTheRunsGenerationFaultAndOnlyThat() {
        int refused = 0;
        int kgStopped = 0;
        int kg = 0;
        for (Label label : logs.labels) {
            if ("generate.gate_refused".equals(label.faultType())) {
                refused++;
                assertThat(stopped(label)).isTrue();
                assertThat(label.isAnswerable()).isTrue();
                assertThat(label.stages().generate()).isEqualTo(1);
                assertThat(label.answerCorrect()).isFalse();
            } else if (stopped(label) && !Boolean.TRUE.equals(label.knowledgeGap())) {
                // stopped for want of the answer: the gate was right, whatever lost it upstream
                assertThat(label.stages().generate()).isZero();
            }
            if (Boolean.TRUE.equals(label.knowledgeGap())) {
                kg++;
                kgStopped += stopped(label) ? 1 : 0;
            }
        }
        assertThat(refused).isPositive();
        // a question the corpus cannot answer is mostly stopped, as a gate should
        assertThat(kgStopped * 2).isGreaterThan(kg);
    }
}

package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import io.raglog.simulator.profile.Profile;
import io.raglog.simulator.profile.Profiles;
import io.raglog.simulator.text.Words;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The held-out profile is never in {@code all}, and differs from the training ones in what its models write. */
class HeldOutProfileTest {

    static final String UNSEEN = "unseen-hyde-mistral";

    @TempDir
    static Path dir;

    static SimulatedLogs logs;

    @BeforeAll
    static void simulate() {
        logs = SimulatedLogs.simulate(SimulatorOptions.of(UNSEEN, 300, 8), dir);
    }

    @Test
    void shouldKeepTheHeldOutProfileOutOfAllAndRunItOnlyByName() {
        assertThat(Profiles.all()).extracting(Profile::name).doesNotContain(UNSEEN).hasSize(6);
        assertThat(Profiles.select("all")).extracting(Profile::name).doesNotContain(UNSEEN);
        assertThat(Profiles.select(UNSEEN)).extracting(Profile::name).containsExactly(UNSEEN);
        assertThat(Profiles.names()).contains(UNSEEN);
        assertThatThrownBy(() -> Profiles.select("unseen-nope")).hasMessageContaining(UNSEEN);
        assertThat(logs.labels).hasSize(300).extracting(Label::profile).containsOnly(UNSEEN);
    }

    @Test
    void shouldSearchWithAHypotheticalAnswerRatherThanTheQuestion() {
        int longer = 0;
        int generated = 0;
        for (JsonNode call : logs.calls) {
            if (!SimulatedLogs.urlEndsWith(call, "/v1/embeddings") || call.get("request").get("body").get("input").size() != 1) {
                continue;
            }
            String embedded = call.get("request").get("body").get("input").get(0).asText();
            assertThat(call.get("request").get("url").asText()).startsWith("https://api.mistral.ai/");
            longer += embedded.endsWith(".") || embedded.contains(". ") ? 1 : 0;
            generated++;
        }
        assertThat(generated).isEqualTo(300);
        // HyDE writes statements, not questions: most embedded texts are sentences
        assertThat(longer).isGreaterThan(generated / 2);
    }

    @Test
    void shouldRefuseInItsOwnWordsAndAnswerAtLengthWithCitations() {
        Set<String> refusals = new HashSet<>();
        int answered = 0;
        int citedOrLong = 0;
        for (Label label : logs.labels) {
            String answer = label.answer();
            if (answer.startsWith("Unfortunately") || answer.startsWith("I'm unable") || answer.startsWith("The sources")
                    || answer.startsWith("No relevant") || answer.startsWith("Based on the available sources")) {
                refusals.add(answer);
                continue;
            }
            answered++;
            boolean cited = answer.matches("(?s).*\\[\\d+\\]\\.?$") || answer.contains("(source: ");
            citedOrLong += cited || Words.tokens(answer).size() > 25 || answer.contains("\n- ") ? 1 : 0;
        }
        assertThat(refusals).hasSizeGreaterThan(2);
        // none of the training profiles' refusal wordings
        assertThat(logs.labels).extracting(Label::answer).doesNotContain("I don't know.",
                "I don't know based on the provided context.",
                "The provided context does not contain the answer to this query.");
        // most answers are cited, long or listed (an answer from memory has no passage to cite or quote around)
        assertThat(citedOrLong).isGreaterThan(answered / 2);
        assertThat(List.copyOf(refusals)).allSatisfy(r -> assertThat(r).doesNotContain("don't know"));
    }
}

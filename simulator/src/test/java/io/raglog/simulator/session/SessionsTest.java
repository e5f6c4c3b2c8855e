package io.raglog.simulator.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelSession;
import io.raglog.schemas.SchemaIds;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.FileSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Simulated users in sessions: re-asks labeled with the run they re-ask, sent as real pipelines send sessions. */
class SessionsTest {

    @TempDir
    static Path dir;

    static List<Label> labels = new ArrayList<>();
    static List<JsonNode> calls = new ArrayList<>();
    static List<String> traces = new ArrayList<>();

    @BeforeAll
    static void simulate() throws IOException {
        SimulatorOptions options = SimulatorOptions.of("all", 900, 7).withSplit("train").withArrivalRate(2)
                .withSessions(SessionPlan.typical());
        try (FileSink sink = new FileSink(dir)) {
            new Simulator(options).run(sink);
        }
        for (String line : Files.readAllLines(dir.resolve(FileSink.LABELS))) {
            labels.add(Json.read(line, Label.class));
        }
        for (String line : Files.readAllLines(dir.resolve(FileSink.CALLS))) {
            calls.add(Json.MAPPER.readTree(line));
        }
        traces = Files.readAllLines(dir.resolve(FileSink.TRACES));
    }

    @Test
    void shouldLabelEveryRunWithItsPlaceInASession() {
        assertThat(labels).allSatisfy(l -> {
            assertThat(l.schema()).isEqualTo(SchemaIds.LABEL_V4);
            assertThat(l.session()).isNotNull();
        });
        Map<String, Long> kinds = labels.stream().collect(Collectors.groupingBy(l -> l.session().kind(),
                Collectors.counting()));
        assertThat(kinds).containsKeys(LabelSession.FIRST, LabelSession.REASK, LabelSession.FOLLOW_UP,
                LabelSession.NEW_TOPIC);
        assertThat(kinds.get(LabelSession.REASK)).isGreaterThan(60);
        assertThat(kinds.get(LabelSession.FOLLOW_UP)).isGreaterThan(60);
    }

    @Test
    void shouldPointEachReAskAtAnEarlierRunOfTheSameUserAndQuestionInOtherWords() {
        Map<String, Label> byRun = labels.stream().collect(Collectors.toMap(Label::runId, l -> l));
        List<Label> reasks = labels.stream().filter(l -> l.session().reask()).toList();
        for (Label r : reasks) {
            Label earlier = byRun.get(r.session().reaskOf());
            assertThat(earlier).as("re-ask of a run already simulated").isNotNull();
            assertThat(earlier.session().user()).isEqualTo(r.session().user());
            assertThat(earlier.questionId()).isEqualTo(r.questionId());
            assertThat(earlier.startedAt()).isBefore(r.startedAt());
            assertThat(normalised(r.question())).isNotEqualTo(normalised(earlier.question()));
        }
    }

    @Test
    void shouldReAskWrongAnswersMoreOftenThanRightOnes() {
        Map<String, Label> byRun = labels.stream().collect(Collectors.toMap(Label::runId, l -> l));
        int[] afterBad = new int[2];
        int[] afterGood = new int[2];
        for (Label l : labels) {
            if (l.session().previousRunId() == null) {
                continue;
            }
            Label previous = byRun.get(l.session().previousRunId());
            int[] tally = previous.answerCorrect() && previous.isAnswerable() ? afterGood : afterBad;
            tally[0]++;
            tally[1] += l.session().reask() ? 1 : 0;
        }
        assertThat((double) afterBad[1] / afterBad[0]).isGreaterThan(3.0 * afterGood[1] / afterGood[0]);
        assertThat(afterGood[1]).as("good answers are re-asked too, now and then").isPositive();
    }

    @Test
    void shouldFollowUpOnTheSameArticleWithAnotherQuestion() {
        Map<String, Label> byRun = labels.stream().collect(Collectors.toMap(Label::runId, l -> l));
        for (Label l : labels) {
            if (LabelSession.FOLLOW_UP.equals(l.session().kind())) {
                Label previous = byRun.get(l.session().previousRunId());
                assertThat(l.questionId()).isNotEqualTo(previous.questionId());
                assertThat(l.evidenceChunkIds().isEmpty() || previous.evidenceChunkIds().isEmpty()
                        || article(l.evidenceChunkIds().get(0)).equals(article(previous.evidenceChunkIds().get(0))))
                        .isTrue();
            }
        }
    }

    @Test
    void shouldSendTheSessionIdOnEveryCallAndSpanExceptFromSilentPipelinesAndUsers() {
        Map<String, String> sessionOfRunHintless = new HashMap<>();
        labels.forEach(l -> sessionOfRunHintless.put(l.generatorEventId(), l.session().id()));
        int withSession = 0;
        for (JsonNode call : calls) {
            String pipeline = call.get("pipeline").asText();
            JsonNode header = call.get("request").get("headers").get(SessionPlan.SESSION_HEADER);
            if (SessionPlan.typical().silentPipelines().contains(pipeline)) {
                assertThat(header).isNull();
            }
            if (header != null) {
                assertThat(call.get("session").asText()).isEqualTo(header.asText());
                withSession++;
            }
            String generatorSession = sessionOfRunHintless.get(call.get("event_id").asText());
            if (sessionOfRunHintless.containsKey(call.get("event_id").asText())) {
                assertThat(header == null ? null : header.asText()).isEqualTo(generatorSession);
            }
        }
        assertThat(withSession).isPositive();
        assertThat(String.join("\n", traces)).contains("\"key\":\"session.id\"");
        long anonymousElsewhere = labels.stream().filter(l -> l.session().id() == null)
                .filter(l -> !SessionPlan.typical().silentPipelines().contains(l.pipeline())).count();
        assertThat(anonymousElsewhere).as("users with no session id on pipelines that send one").isPositive();
    }

    @Test
    void shouldInterleaveConcurrentSessionsOfOnePipeline() {
        Map<String, List<Label>> byPipeline = labels.stream().collect(Collectors.groupingBy(Label::pipeline));
        int overlapping = 0;
        for (List<Label> runs : byPipeline.values()) {
            Map<String, int[]> span = new HashMap<>();
            for (int i = 0; i < runs.size(); i++) {
                int at = i;
                span.computeIfAbsent(runs.get(i).session().user(), u -> new int[] {at, at})[1] = i;
            }
            for (int[] u : span.values()) {
                // another user started during u's session and went on after it: the two sessions ran side by side
                if (span.values().stream().anyMatch(v -> u[0] < v[0] && v[0] < u[1] && u[1] < v[1])) {
                    overlapping++;
                }
            }
        }
        assertThat(overlapping).isGreaterThan(50);
    }

    @Test
    void shouldRephraseWithoutAMarkOrTemplate() {
        SplittableRandom rng = new SplittableRandom(3);
        String question = "When was the first steam engine built in England?";
        Set<String> seen = new HashSet<>();
        Map<String, Integer> firstWords = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            String p = UserParaphraser.rephrase(question, rng);
            assertThat(normalised(p)).isNotEqualTo(normalised(question));
            seen.add(p);
            firstWords.merge(p.split(" ")[0].toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        assertThat(seen).as("many different wordings").hasSizeGreaterThan(100);
        assertThat(firstWords.values()).as("no opening dominates").allSatisfy(n -> assertThat(n).isLessThan(120));
        List<Label> reasks = labels.stream().filter(l -> l.session().reask()).toList();
        Map<String, Long> openings = reasks.stream().collect(Collectors.groupingBy(
                l -> l.question().split(" ")[0].toLowerCase(Locale.ROOT), Collectors.counting()));
        assertThat(openings.values()).allSatisfy(n -> assertThat(n).isLessThan(reasks.size() / 3));
    }

    @Test
    void shouldWriteTheSameBytesWithoutSessionsAsBefore() {
        SimulatorOptions plain = SimulatorOptions.of("all", 30, 7);
        List<Label> a = new ArrayList<>();
        List<Label> b = new ArrayList<>();
        new Simulator(plain).run(new CollectingSink(a));
        new Simulator(plain.withSessions(SessionPlan.none())).run(new CollectingSink(b));
        assertThat(a).isEqualTo(b);
        assertThat(a).allSatisfy(l -> {
            assertThat(l.schema()).isEqualTo(SchemaIds.LABEL_V3);
            assertThat(Json.write(l)).doesNotContain("\"session\"");
        });
    }

    private static String article(String chunkId) {
        return chunkId.replaceAll("-\\d+#.*$", "");
    }

    private static String normalised(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    /** Labels only; the calls are not needed to compare two label streams. */
    private record CollectingSink(List<Label> labels) implements io.raglog.simulator.output.SimulationSink {
        @Override
        public void call(io.raglog.schemas.CallEvent call) {}

        @Override
        public void traces(com.fasterxml.jackson.databind.node.ObjectNode request) {}

        @Override
        public void label(Label label) {
            labels.add(label);
        }

        @Override
        public void close() {}
    }
}

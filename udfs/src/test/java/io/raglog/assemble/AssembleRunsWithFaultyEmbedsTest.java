package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Unhinted runs of a pipeline with an in-process vector store (rewrite → embed → rerank → generate, no retrieval call,
 * so no query vector links the embedding), whose embedded text is not the rewrite verbatim: each run must still get
 * its own embedding call, with several runs in flight at once and their calls interleaved.
 */
class AssembleRunsWithFaultyEmbedsTest {

    private static final String[][] QUESTIONS = {
        {"What kind of access do undergraduates have to the Harvard University Archives?",
            "harvard university archives undergraduate access"},
        {"When did the Normans conquer England?", "normans conquest england date"},
        {"Which river flows through the city of Warsaw?", "river flowing through warsaw city"},
        {"How many students attend Harvard University each year?", "harvard university student enrollment per year"},
    };

    private KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> harness;

    @BeforeEach
    void setUp() throws Exception {
        harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new AssembleRunsFunction(AssemblySettings.DEFAULTS.eventTimeOnly()), ClassifiedCall::runKey,
                Types.STRING);
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private static TestCalls run(int i, String tag) {
        TestCalls shape = TestCalls.run("onprem", null, tag, i + 1);
        return new TestCalls("onprem", null, tag, QUESTIONS[i][0], QUESTIONS[i][1], shape.vector, shape.retrieved);
    }

    /** The runs' calls, run {@code i} starting 0.3 s after run {@code i - 1}, in the order they end. */
    private static List<ClassifiedCall> interleaved(List<TestCalls> runs, UnaryOperator<String> embedFault) {
        List<ClassifiedCall> calls = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            TestCalls r = runs.get(i);
            double o = i * 0.3;
            calls.add(r.rewrite(o, o + 0.4));
            calls.add(r.embed("embed", o + 0.45, o + 0.7, 200, embedFault.apply(r.query)));
            calls.add(r.rerank(o + 0.75, o + 1.1));
            calls.add(r.generate(o + 1.1, o + 2.5));
        }
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt()));
        return calls;
    }

    private List<Run> assemble(List<ClassifiedCall> calls) throws Exception {
        for (ClassifiedCall c : calls) {
            long end = c.event().endedAt().toEpochMilli();
            harness.processElement(c, end);
            harness.processWatermark(end - 500);
        }
        harness.processWatermark(TestCalls.ms(1000));
        return harness.extractOutputValues();
    }

    /** Each run complete, with its own four calls (its own embedding among them), and the state empty. */
    private void assertEachRunHasItsOwnEmbedding(List<TestCalls> runs, List<Run> out) {
        assertThat(out).hasSize(runs.size()).allSatisfy(run -> {
            assertThat(run.incomplete()).as("incomplete: %s", run.incompleteReason()).isFalse();
            String tag = run.callIds().get(0).substring(0, run.callIds().get(0).indexOf('-'));
            assertThat(run.callIds()).hasSize(4).containsExactlyInAnyOrder(tag + "-rewrite", tag + "-embed",
                    tag + "-rerank", tag + "-generate");
            assertThat(run.has(Stage.EMBED)).isTrue();
            assertThat(run.stages().retrieve().reconstructed()).isTrue();
        });
        assertThat(harness.numKeyedStateEntries()).as("keyed state entries").isZero();
        assertThat(harness.numEventTimeTimers()).as("event-time timers").isZero();
    }

    private void assertLinkedDespite(UnaryOperator<String> embedFault) throws Exception {
        List<TestCalls> runs = List.of(run(0, "a"), run(1, "b"), run(2, "c"), run(3, "d"));
        assertEachRunHasItsOwnEmbedding(runs, assemble(interleaved(runs, embedFault)));
    }

    @Test
    void shouldLinkAnEmbeddingWithTypos() throws Exception {
        // one or two edits in a word or two: keyboard neighbours, a swapped pair, a dropped letter
        assertLinkedDespite(q -> q.replace("university", "univetsity").replace("normans", "nromans")
                .replace("warsaw", "warsw").replace("enrollment", "enrolment"));
    }

    @Test
    void shouldLinkATruncatedEmbedding() throws Exception {
        // cut at a token budget, mid-word: "harvard university arch", "normans conq", ...
        assertLinkedDespite(q -> q.substring(0, Math.max(8, q.length() * 3 / 5)));
    }

    @Test
    void shouldLinkAnEmbeddingWithAnInstructionPrefix() throws Exception {
        assertLinkedDespite(q -> "Represent this sentence for searching relevant passages: " + q);
    }

    @Test
    void shouldLinkAnEmbeddingThatDroppedAWord() throws Exception {
        assertLinkedDespite(q -> q.substring(q.indexOf(' ') + 1));
    }

    @Test
    void shouldLinkAnEmbeddingWithAddedWords() throws Exception {
        assertLinkedDespite(q -> q + " egyptian elements months");
    }

    @Test
    void shouldGiveTwoRunsOfTheSameQuestionEachItsOwnFaultyEmbeddingByTime() throws Exception {
        // the same question asked twice at once, each embedding with other unrelated words added: both follow both
        // runs' rewrite, so the nearer in time decides, as exact linking does for identical calls. The second run
        // closes first, and the first run's embedding follows the shared rewrite better (fewer words added): it is
        // still the first run's, whose rewrite it followed
        TestCalls first = run(0, "a");
        TestCalls second = new TestCalls("onprem", null, "b", first.question, first.query, first.vector,
                first.retrieved);
        List<ClassifiedCall> calls = new ArrayList<>(List.of(first.rewrite(0, 0.4),
                first.embed("embed", 0.45, 0.7, 200, first.query + " egyptian months"),
                first.rerank(0.75, 1.1), first.generate(1.1, 2.5), second.rewrite(0.3, 0.7),
                second.embed("embed", 0.75, 0.9, 200, second.query + " scouts acted oneida become"),
                second.rerank(0.95, 1.2), second.generate(1.2, 2.4)));
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt()));
        List<Run> out = assemble(calls);
        assertThat(out).hasSize(2).allSatisfy(run -> {
            String tag = run.callIds().get(0).substring(0, 1);
            assertThat(run.callIds()).hasSize(4).allSatisfy(id -> assertThat(id).startsWith(tag + "-"));
        });
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void shouldLinkALoneEmbeddingByOrderInTimeWhenNoTextLinksIt() throws Exception {
        // the embedded text shares nothing with the rewrite (a pipeline bug sent another field), and only this run
        // was between its rewrite and its reranker when the call was made
        TestCalls a = run(0, "a");
        List<ClassifiedCall> calls = List.of(a.rewrite(0, 0.4),
                a.embed("embed", 0.45, 0.7, 200, "lorem ipsum dolor sit amet"), a.rerank(0.75, 1.1),
                a.generate(1.1, 2.5));
        assertEachRunHasItsOwnEmbedding(List.of(a), assemble(calls));
    }

    @Test
    void shouldLeaveLoneEmbeddingsOrphansWhenTwoRunsCouldHaveSentThem() throws Exception {
        // two runs between their rewrite and their reranker at once, each embedding a text that follows neither's:
        // order in time cannot tell which is whose, so neither is claimed and both leave as orphans
        TestCalls a = run(0, "a");
        TestCalls b = run(1, "b");
        List<ClassifiedCall> calls = new ArrayList<>(List.of(a.rewrite(0, 0.4), b.rewrite(0.1, 0.5),
                a.embed("embed", 0.55, 0.7, 200, "lorem ipsum dolor sit amet"),
                b.embed("embed", 0.6, 0.8, 200, "consectetur adipiscing elit"), a.rerank(0.75, 1.1),
                b.rerank(0.85, 1.2), a.generate(1.1, 2.5), b.generate(1.2, 2.6)));
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt()));
        List<Run> out = assemble(calls);
        assertThat(out).hasSize(4);
        assertThat(out).filteredOn(Run::incomplete).hasSize(2).allSatisfy(orphan -> {
            assertThat(orphan.callIds()).singleElement().satisfies(id -> assertThat(id).endsWith("-embed"));
            assertThat(IncompleteRuns.orphan(orphan)).isTrue();
        });
        assertThat(out).filteredOn(r -> !r.incomplete()).hasSize(2)
                .allSatisfy(r -> assertThat(r.has(Stage.EMBED)).isFalse());
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }
}

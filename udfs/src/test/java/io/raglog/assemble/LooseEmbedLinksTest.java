package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loose embedding links as {@link RunLinker} applies them, without Flink: which run gets which embedding call. */
class LooseEmbedLinksTest {

    private static final long LATER = TestCalls.ms(1000);

    private static TestCalls run(String tag, String question, String query, int seed) {
        TestCalls shape = TestCalls.run("onprem", null, tag, seed);
        return new TestCalls("onprem", null, tag, question, query, shape.vector, shape.retrieved);
    }

    private static final TestCalls A = run("a", "When did the Normans conquer England?", "normans conquest england date",
            1);
    private static final TestCalls B = run("b", "Which river flows through the city of Warsaw?",
            "river flowing through warsaw city", 2);

    private static List<Run> link(List<ClassifiedCall> calls) {
        return RunLinker.link("onprem", null, calls, LATER, AssemblySettings.DEFAULTS).stream()
                .map(RunLinker.Assembled::run).toList();
    }

    private static Run runOf(List<Run> runs, String tag) {
        return runs.stream().filter(r -> !r.incomplete() && r.callIds().contains(tag + "-generate")).findFirst()
                .orElseThrow();
    }

    @Test
    void shouldTakeTheLoneEmbeddingBetweenTheRewriteAndTheReranker() {
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), A.embed("embed", 0.45, 0.7, 200, "zzz qqq"),
                A.rerank(0.75, 1.1), A.generate(1.1, 2.5)));
        assertThat(runs).singleElement().satisfies(r -> assertThat(r.callIds()).contains("a-embed"));
    }

    @Test
    void shouldTakeAFaultyEmbeddingThatStartedJustBeforeTheRewritesRecordedEnd() {
        // the proxy stamps a call's end once its reply is flushed; the client had it, and embedded, 2 ms earlier
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), A.embed("embed", 0.398, 0.45, 200,
                "normans conqeust england date"), A.rerank(0.5, 0.8), A.generate(0.85, 2.0)));
        assertThat(runs).singleElement().satisfies(r -> assertThat(r.callIds()).contains("a-embed"));
    }

    @Test
    void shouldNotTakeAnUnrelatedEmbeddingOutsideTheRunsWindow() {
        // after the reranker started: not this run's embedding, whatever the order of the calls
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), A.rerank(0.45, 0.8),
                A.embed("embed", 0.85, 0.9, 200, "zzz qqq"), A.generate(1.1, 2.5)));
        assertThat(runOf(runs, "a").callIds()).doesNotContain("a-embed");
        assertThat(runs).filteredOn(Run::incomplete).singleElement()
                .satisfies(r -> assertThat(IncompleteRuns.orphan(r)).isTrue());
    }

    @Test
    void shouldTakeNeitherOfTwoLoneEmbeddingsInOneWindow() {
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), A.embed("embed", 0.45, 0.5, 200, "zzz qqq"),
                A.embed("embed2", 0.55, 0.6, 200, "yyy www"), A.rerank(0.75, 1.1), A.generate(1.1, 2.5)));
        assertThat(runOf(runs, "a").callIds()).containsExactlyInAnyOrder("a-rewrite", "a-rerank", "a-generate");
    }

    @Test
    void shouldLeaveANearEmbeddingToTheRunItFollowsWhenAnotherRunClosesFirstWithoutOne() {
        // a lost its embedding; b's, misspelt, lies in a's window and a closes first: b's text says it is b's
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), B.rewrite(0.05, 0.35),
                B.embed("embed", 0.4, 0.5, 200, "rivr flowing throgh warsaw city"), A.rerank(0.6, 0.9),
                B.rerank(0.6, 1.0), A.generate(0.95, 2.0), B.generate(1.05, 2.5)));
        assertThat(runOf(runs, "a").callIds()).containsExactlyInAnyOrder("a-rewrite", "a-rerank", "a-generate");
        assertThat(runOf(runs, "b").callIds()).containsExactlyInAnyOrder("b-rewrite", "b-embed", "b-rerank",
                "b-generate");
    }

    @Test
    void shouldGiveEachOfTwoNearEmbeddingsToTheRunItFollowsBest() {
        // both misspelt, both in both windows, a's sent last: each text says whose it is
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), B.rewrite(0.05, 0.35),
                B.embed("embed", 0.4, 0.5, 200, "rivr flowing throgh warsaw city"),
                A.embed("embed", 0.45, 0.55, 200, "query: normns conquest englad date"), A.rerank(0.6, 0.9),
                B.rerank(0.6, 1.0), A.generate(0.95, 2.0), B.generate(1.05, 2.5)));
        assertThat(runOf(runs, "a").callIds()).contains("a-embed").doesNotContain("b-embed");
        assertThat(runOf(runs, "b").callIds()).contains("b-embed").doesNotContain("a-embed");
    }

    @Test
    void shouldLeaveATruncatedEmbeddingThatFollowsTwoRunsToTheNearerInTime() {
        // cut to "harvard university archives": the start of both rewrites, as well. r closes first, without an
        // embedding of its own; the call followed x's rewrite, which ended later and nearer to it
        TestCalls r = run("r", "What access do undergraduates have to the Harvard University Archives?",
                "harvard university archives undergraduate access", 3);
        TestCalls x = run("x", "When are the Harvard University Archives open?",
                "harvard university archives opening hours", 4);
        List<Run> runs = link(List.of(r.rewrite(0, 0.4), x.rewrite(0.1, 0.5),
                x.embed("embed", 0.55, 0.6, 200, "harvard university archives"), r.rerank(0.6, 0.9),
                x.rerank(0.65, 1.0), r.generate(0.95, 2.0), x.generate(1.05, 2.5)));
        assertThat(runOf(runs, "r").callIds()).doesNotContain("x-embed");
        assertThat(runOf(runs, "x").callIds()).contains("x-embed");
    }

    @Test
    void shouldNotLeaveATruncatedEmbeddingToARunThatBeganAfterIt() {
        // cut to "rankine cycle", which fits a later question's rewrite better than its own; that question was asked
        // after the call ended (its embedding still to come when w closes), so the call cannot be its (a JavaScript
        // client, 24 questions at a time)
        TestCalls w = run("w", "In the Rankine cycle, what does water turn into when heated?",
                "rankine cycle water turn heated", 5);
        TestCalls s = run("s", "What is the Rankine cycle sometimes called?", "rankine cycle sometimes called", 6);
        List<Run> runs = link(List.of(w.rewrite(0, 0.4), w.embed("embed", 0.45, 0.5, 200, "rankine cycle"),
                w.rerank(0.55, 0.8), w.generate(0.85, 1.5), s.rewrite(1.6, 2.0)));
        assertThat(runOf(runs, "w").callIds()).contains("w-embed");
        assertThat(runs).filteredOn(Run::incomplete).noneMatch(r -> r.callIds().contains("w-embed"));
    }

    @Test
    void shouldNotTakeByOrderInTimeAnEmbeddingThatLinksToAnotherRunsReranker() {
        // a lost its embedding, b's rewrite was not logged: b's embedding, in a's window, is b's by its reranker
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), B.embed(0.45, 0.55), A.rerank(0.6, 0.9),
                B.rerank(0.6, 1.0), A.generate(0.95, 2.0), B.generate(1.05, 2.5)));
        assertThat(runOf(runs, "a").callIds()).doesNotContain("b-embed");
    }

    @Test
    void shouldNotTakeAnotherRunsExactEmbeddingByOrderInTime() {
        // a's own embedding went missing; b's, exact and in a's window, is b's
        List<Run> runs = link(List.of(A.rewrite(0, 0.4), B.rewrite(0.05, 0.35), B.embed(0.45, 0.55),
                A.rerank(0.6, 0.9), B.rerank(0.6, 1.0), A.generate(0.95, 2.0), B.generate(1.05, 2.5)));
        assertThat(runOf(runs, "a").callIds()).doesNotContain("b-embed");
        assertThat(runOf(runs, "b").callIds()).contains("b-embed");
    }
}

package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Answers synthesised in several generator calls, linked without a hint among another run of the same pipeline: each
 * a run of its own, whose generator is all its steps.
 */
class SynthesisChainsTest {

    private static final AssemblySettings SETTINGS = AssemblySettings.DEFAULTS;

    private static String texts(List<Passage> passages) {
        return String.join("\n\n", passages.stream().map(Passage::text).toList());
    }

    /** LlamaIndex's tree summary: a summary of each half of the passages, then a summary of the two summaries. */
    @Test
    void shouldReadATreeSummaryAsOneGeneratorWhoseContextIsThePassagesNotTheSummaries() {
        TestCalls tree = TestCalls.run("kb-bot", null, "alpha", 1);
        TestCalls other = TestCalls.run("kb-bot", null, "beta", 2);
        String template = "Context information from multiple sources is below.\n---------------------\n%s\n"
                + "---------------------\nGiven the information from multiple sources and not prior knowledge, answer "
                + "the query.\nQuery: " + tree.question + "\nAnswer: ";
        String left = "The first half says the fact is 10.";
        String right = "The second half says the fact is 12.";
        List<ClassifiedCall> calls = new ArrayList<>(List.of(tree.embed(0.0, 0.2), tree.retrieve(0.2, 0.3),
                other.embed(0.25, 0.4), other.retrieve(0.4, 0.5),
                tree.chat("leaf-1", 0.3, 1.5, template.formatted(texts(tree.retrieved.subList(0, 2))), left),
                tree.chat("leaf-2", 0.3, 1.6, template.formatted(texts(tree.retrieved.subList(2, 4))), right),
                other.generate(0.5, 1.8),
                tree.chat("root", 1.6, 2.9, template.formatted(left + "\n\n" + right), "The fact is 10 and 12.")));
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt()));

        List<Run> runs = runs(calls);

        assertThat(runs).hasSize(2);
        Run run = runs.stream().filter(r -> r.question().equals(tree.question)).findFirst().orElseThrow();
        assertThat(run.incomplete()).isFalse();
        assertThat(run.stages().generate().callIds()).containsExactly("alpha-leaf-1", "alpha-leaf-2", "alpha-root");
        assertThat(run.stages().generate().answer()).isEqualTo("The fact is 10 and 12.");
        assertThat(run.stages().generate().context()).extracting(Passage::id)
                .containsExactly("doc-alpha-0", "doc-alpha-1", "doc-alpha-2", "doc-alpha-3");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.callIds()).contains("alpha-embed", "alpha-retrieve");
        Run theOther = runs.stream().filter(r -> r.question().equals(other.question)).findFirst().orElseThrow();
        assertThat(theOther.callIds()).containsExactlyInAnyOrder("beta-embed", "beta-retrieve", "beta-generate");
    }

    /** LangChain's refine chain: one call per passage, each refining the answer before it. */
    @Test
    void shouldChainEveryRefineStepToTheAnswerItRefines() {
        TestCalls chain = TestCalls.run("kb-bot", null, "gamma", 3);
        List<ClassifiedCall> calls = new ArrayList<>(List.of(chain.embed(0.0, 0.2), chain.retrieve(0.2, 0.3),
                chain.chat("step-1", 0.3, 1.0, "Context information is below.\n------------\n"
                        + chain.retrieved.get(0).text() + "\n------------\nGiven the context information and not "
                        + "prior knowledge, answer the question: " + chain.question + "\n", "It is 30.")));
        String answer = "It is 30.";
        for (int i = 1; i < 4; i++) {
            String refined = answer.replace(".", "") + " or " + (30 + i) + ".";
            calls.add(chain.chat("step-" + (i + 1), i + 0.05, i + 0.9, "The original question is as follows: "
                    + chain.question + "\nWe have provided an existing answer: " + answer + "\nWe have the "
                    + "opportunity to refine the existing answer(only if needed) with some more context below.\n"
                    + "------------\n" + chain.retrieved.get(i).text() + "\n------------\nGiven the new context, "
                    + "refine the original answer to better answer the question. If the context isn't useful, "
                    + "return the original answer.", refined));
            answer = refined;
        }

        List<Run> runs = runs(calls);

        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).stages().generate().callIds()).containsExactly("gamma-step-1", "gamma-step-2",
                "gamma-step-3", "gamma-step-4");
        assertThat(runs.get(0).stages().generate().answer()).isEqualTo("It is 30 or 31 or 32 or 33.");
        assertThat(runs.get(0).stages().generate().context()).extracting(Passage::id)
                .containsExactly("doc-gamma-0", "doc-gamma-1", "doc-gamma-2", "doc-gamma-3");
    }

    /**
     * The proxy stamps a call's end once it has written the reply, and the client may send its next step before that:
     * the refine starts a few milliseconds before the step it refines ended, and is still its next step.
     */
    @Test
    void shouldChainARefineSentBeforeTheProxyStampedTheStepBeforeItsEnd() {
        TestCalls chain = TestCalls.run("kb-bot", null, "epsilon", 6);
        List<ClassifiedCall> calls = List.of(chain.embed(0.0, 0.2), chain.retrieve(0.2, 0.3),
                chain.chat("step-1", 0.3, 1.0, firstStepOf(chain), "It is 60."),
                chain.chat("step-2", 0.998, 1.7, refineOf(chain, "It is 60.", 1), "It is 60 or 61."));

        List<Run> runs = runs(calls);

        assertThat(runs).singleElement().satisfies(r -> assertThat(r.stages().generate().callIds())
                .containsExactly("epsilon-step-1", "epsilon-step-2"));
    }

    /**
     * On a busy machine the proxy may stamp a step's end after the next step has been answered: the step that kept
     * the answer it refined is still the one the next refines (of two equal answers, the later), and the three are
     * one run.
     */
    @Test
    void shouldChainARefineAnsweredBeforeTheProxyStampedTheStepBeforeItsEnd() {
        TestCalls chain = TestCalls.run("kb-bot", null, "zeta", 7);
        List<ClassifiedCall> calls = List.of(chain.embed(0.0, 0.2), chain.retrieve(0.2, 0.3),
                chain.chat("step-1", 0.3, 1.0, firstStepOf(chain), "It is 70."),
                // kept the answer it was given; its end stamped after the third step's
                chain.chat("step-2", 1.05, 2.5, refineOf(chain, "It is 70.", 1), "It is 70."),
                chain.chat("step-3", 1.2, 1.6, refineOf(chain, "It is 70.", 2), "It is 70 or 71."));

        List<Run> runs = runs(calls);

        assertThat(runs).singleElement().satisfies(r -> {
            assertThat(r.stages().generate().callIds()).containsExactly("zeta-step-1", "zeta-step-2", "zeta-step-3");
            assertThat(r.stages().generate().answer()).isEqualTo("It is 70 or 71.");
        });
    }

    /** A refine chain's first step: its first passage, answered. */
    private static String firstStepOf(TestCalls chain) {
        return "Context information is below.\n------------\n" + chain.retrieved.get(0).text() + "\n------------\n"
                + "Given the context information and not prior knowledge, answer the question: " + chain.question + "\n";
    }

    /** A refine step: the answer so far and the next passage, to refine it with. */
    private static String refineOf(TestCalls chain, String answer, int passage) {
        return "The original question is as follows: " + chain.question + "\nWe have provided an existing answer: "
                + answer + "\nWe have the opportunity to refine the existing answer(only if needed) with some more "
                + "context below.\n------------\n" + chain.retrieved.get(passage).text() + "\n------------\nGiven "
                + "the new context, refine the original answer to better answer the question.";
    }

    /** Two people ask the same question at once: two answers, neither a step of the other. */
    @Test
    void shouldKeepTheSameQuestionAskedTwiceAsTwoRuns() {
        TestCalls first = TestCalls.run("kb-bot", null, "delta", 4);
        TestCalls second = new TestCalls("kb-bot", null, "delta2", first.question, first.query + " again",
                TestCalls.run("kb-bot", null, "x", 5).vector, first.retrieved);
        List<ClassifiedCall> calls = List.of(first.embed(0.0, 0.2), first.retrieve(0.2, 0.3),
                first.generate(0.3, 1.0), second.embed(1.1, 1.3), second.retrieve(1.3, 1.4),
                second.generate(1.4, 2.0));

        List<Run> runs = runs(calls);

        assertThat(runs).hasSize(2).allSatisfy(r -> assertThat(r.stages().generate().callIds()).hasSize(1));
    }

    private static List<Run> runs(List<ClassifiedCall> calls) {
        List<RunLinker.Assembled> assembled = RunLinker.link("kb-bot", null, calls, Long.MAX_VALUE / 2, SETTINGS);
        return assembled.stream().map(RunLinker.Assembled::run).toList();
    }
}

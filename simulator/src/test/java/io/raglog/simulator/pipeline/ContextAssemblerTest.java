package io.raglog.simulator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.WordPieces;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pipeline's own code between the passages handed on and the prompt: budgets, cuts, drops, orders. */
class ContextAssemblerTest {

    private static Chunk chunk(String id, String text) {
        return new Chunk(id, 0, "doc", "Normans", 0, 0, text);
    }

    private static final Chunk FIRST = chunk("d#0", "The Normans were a people who gave their name to Normandy, a "
            + "region in France. They descended from Norse raiders and pirates from Denmark, Iceland and Norway.");
    private static final Chunk SECOND = chunk("d#1", "Their identity emerged initially in the first half of the 10th "
            + "century, and it continued to evolve over the succeeding centuries. The first duke was Rollo, "
            + "who agreed to swear fealty to King Charles III of West Francia.");
    private static final Chunk THIRD = chunk("d#2", "The Norman dynasty had a major political, cultural and military "
            + "impact on medieval Europe and even the Near East.");
    private static final Question WHO = new Question("q1", "Who was the first duke of Normandy?", true,
            List.of("doc"), "Rollo", List.of("Rollo"), List.of(0), List.of());

    @Test
    void spendsTheBudgetBestFirstAndCutsTheOverflowingPassage() {
        int budget = WordPieces.count(FIRST.text()) + 10;

        List<Chunk> prompt = ContextAssembler.fit(List.of(FIRST, SECOND, THIRD), budget, true);

        assertThat(prompt).hasSize(2);
        assertThat(prompt.get(0)).isEqualTo(FIRST);
        assertThat(prompt.get(1).chunkId()).isEqualTo(SECOND.chunkId());
        assertThat(SECOND.text()).startsWith(prompt.get(1).text());
        assertThat(prompt.get(1).text()).isNotEqualTo(SECOND.text());
        assertThat(ContextAssembler.fit(List.of(FIRST, SECOND, THIRD), budget, false)).containsExactly(FIRST);
        assertThat(ContextAssembler.fit(List.of(FIRST, SECOND), null, true)).containsExactly(FIRST, SECOND);
        assertThat(ContextAssembler.fit(List.of(FIRST, SECOND), 3, false))
                .as("dropping whole passages, the best is sent even when it overflows").containsExactly(FIRST);
    }

    @Test
    void ordersBestLastOrBestAtBothEnds() {
        Chunk fourth = chunk("d#3", "x");
        List<Chunk> bestFirst = List.of(FIRST, SECOND, THIRD, fourth);

        assertThat(ContextAssembler.order(bestFirst, ContextBudget.Order.BEST_LAST))
                .containsExactly(fourth, THIRD, SECOND, FIRST);
        assertThat(ContextAssembler.order(bestFirst, ContextBudget.Order.ENDS_FIRST))
                .containsExactly(FIRST, THIRD, fourth, SECOND);
    }

    @Test
    void losingTheAnswerLeavesNoPromptPassageThatHoldsItInARoomThePipelineGivesItsRuns() {
        // even the whole room cuts the second passage before its answer
        ContextBudget tight = new ContextBudget(WordPieces.count(FIRST.text()) + 10, true, ContextBudget.Order.AS_HANDED);
        for (int seed = 0; seed < 40; seed++) {
            Injection<List<Chunk>> lost = ContextAssembler.loseAnswer(WHO, List.of(FIRST, SECOND, THIRD),
                    Set.of(SECOND), tight, new SplittableRandom(seed));

            assertThat(lost).isNotNull();
            assertThat(lost.fault().type().stage().id()).isEqualTo("assemble");
            assertThat(lost.output()).noneSatisfy(c -> assertThat(c.text()).contains("Rollo"));
            assertThat(lost.output()).extracting(Chunk::chunkId).as("the best passage reaches it, whole or cut")
                    .contains(FIRST.chunkId());
            int room = WordPieces.count(String.join(" ", lost.output().stream().map(Chunk::text).toList()));
            assertThat(room).as("what reached the prompt fits the budget").isLessThanOrEqualTo(tight.tokens());
            assertThat(room).as("and no less than the least room the pipeline's runs get")
                    .isGreaterThanOrEqualTo((int) (tight.tokens() * ContextBudget.LEAST_ROOM) - 1);
        }
    }

    @Test
    void aPipelineThatFillsInTheDocumentsOrderLosesItsBestPassageWhenItComesLastInThem() {
        Chunk answerLate = new Chunk("d#1", 1, "doc", "Normans", 1, 900, SECOND.text());
        Chunk early = new Chunk("d#0", 0, "doc", "Normans", 0, 0, FIRST.text());
        List<Chunk> rankedFirst = List.of(answerLate, early);
        int room = WordPieces.count(FIRST.text()) + 3;
        ContextBudget documents = new ContextBudget(room, false, ContextBudget.Order.AS_HANDED,
                ContextBudget.Fill.DOCUMENT_ORDER);
        ContextBudget bestFirst = new ContextBudget(room, false, ContextBudget.Order.AS_HANDED);

        assertThat(ContextAssembler.assemble(rankedFirst, documents).prompt()).containsExactly(early);
        assertThat(ContextAssembler.assemble(rankedFirst, bestFirst).prompt()).containsExactly(answerLate);
        for (int seed = 0; seed < 20; seed++) {
            Injection<List<Chunk>> lost = ContextAssembler.loseAnswer(WHO, rankedFirst, Set.of(answerLate),
                    documents, new SplittableRandom(seed));
            assertThat(lost).isNotNull();
            assertThat(lost.output()).containsExactly(early);
            assertThat(lost.fault().type()).isEqualTo(FaultType.ASSEMBLE_EVIDENCE_DROPPED);
            assertThat(lost.fault().detail()).contains("passage 1 of 2", "late in the documents' order");
            assertThat(ContextAssembler.loseAnswer(WHO, rankedFirst, Set.of(answerLate), bestFirst,
                    new SplittableRandom(seed))).as("spent best first, the budget keeps the best passage").isNull();
        }
    }

    @Test
    void aBudgetTheContextNeverOverrunsLosesNothing() {
        int handed = WordPieces.count(FIRST.text() + " " + SECOND.text() + " " + THIRD.text());
        // the least room a run gets (a quarter) still holds every passage: no run of this pipeline loses the answer
        ContextBudget generous = new ContextBudget(handed * 5, true, ContextBudget.Order.AS_HANDED);

        for (int seed = 0; seed < 20; seed++) {
            assertThat(ContextAssembler.loseAnswer(WHO, List.of(FIRST, SECOND, THIRD), Set.of(SECOND), generous,
                    new SplittableRandom(seed))).isNull();
            assertThat(ContextAssembler.loseAnswer(WHO, List.of(FIRST, SECOND, THIRD), Set.of(SECOND),
                    ContextBudget.NONE, new SplittableRandom(seed))).isNull();
        }
    }

    @Test
    void nothingToLoseWhenNoPassageHandedOnHoldsTheAnswer() {
        assertThat(ContextAssembler.loseAnswer(WHO, List.of(FIRST, THIRD), Set.of(SECOND),
                ContextBudget.NONE, new SplittableRandom(1))).isNull();
    }

    @Test
    void buryingMovesTheAnswersPassageFromAnEndToTheMiddleAndKeepsEveryPassage() {
        Chunk fourth = chunk("d#3", "Normandy lies on the coast of the English Channel.");
        List<Chunk> prompt = List.of(SECOND, FIRST, THIRD, fourth);

        Injection<List<Chunk>> buried = ContextAssembler.buryAnswer(WHO, prompt, Set.of(SECOND));

        assertThat(buried).isNotNull();
        assertThat(buried.fault().type()).isEqualTo(FaultType.ASSEMBLE_EVIDENCE_BURIED);
        assertThat(buried.output()).containsExactlyInAnyOrderElementsOf(prompt);
        assertThat(buried.output().indexOf(SECOND)).isEqualTo(1);
        assertThat(buried.fault().detail()).contains("position 1 to 2 of the 4");
    }

    @Test
    void nothingToBuryInAShortPromptOrWhereTheAnswerIsAlreadyInside() {
        Chunk fourth = chunk("d#3", "Normandy lies on the coast of the English Channel.");

        assertThat(ContextAssembler.buryAnswer(WHO, List.of(SECOND, FIRST, THIRD), Set.of(SECOND))).isNull();
        assertThat(ContextAssembler.buryAnswer(WHO, List.of(FIRST, SECOND, THIRD, fourth), Set.of(SECOND)))
                .isNull();
        assertThat(ContextAssembler.buryAnswer(WHO, List.of(FIRST, THIRD, fourth), Set.of(SECOND))).isNull();
    }
}

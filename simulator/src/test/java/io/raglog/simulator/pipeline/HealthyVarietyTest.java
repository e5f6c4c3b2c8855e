package io.raglog.simulator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Stage;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.corpus.CorpusModel;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.WordPieces;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A healthy stage varies: a checker that recomputes "the rewrite is the question minus stop words" or "a sound answer
 * is the gold span" must not find the faults for free.
 */
class HealthyVarietyTest {

    static CorpusModel model;
    static ChunkIndex index;
    static RagEngine engine;
    static final StackShape SHAPE = FaultInjectionTest.SHAPE;

    @BeforeAll
    static void load() {
        model = CorpusModel.shipped();
        index = model.index(512);
        engine = new RagEngine(model.stats(), model.vocabulary());
    }

    private static List<RunOutcome> sound(PipelineStyle style, int runs, long seed) {
        List<RunOutcome> out = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Question q = model.corpus().questions().get(i * 11 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, style, Rand.forRun(seed, 1, i));
            if (run.verdict().root() == null) {
                out.add(run);
            }
        }
        return out;
    }

    private static String keywords(String question) {
        List<String> kept = new ArrayList<>();
        for (String t : Words.tokens(question)) {
            if (!Words.isStopword(t) || KeyTerms.kindOf(t) != null) {
                kept.add(Words.lower(t));
            }
        }
        return String.join(" ", kept);
    }

    @Test
    void shouldRewriteInSeveralStylesAndKeepTheQuestionsKeyTerms() {
        List<RunOutcome> runs = sound(FaultInjectionTest.STYLE, 600, 21);
        int notKeywords = 0;
        int longer = 0;
        for (RunOutcome run : runs) {
            String question = run.question().question();
            assertThat(KeyTerms.lost(question, run.rewrite())).isEmpty();
            String asKeywords = String.join(" ", Words.tokens(run.rewrite())).toLowerCase(java.util.Locale.ROOT);
            notKeywords += asKeywords.equals(keywords(question)) ? 0 : 1;
            longer += Words.tokens(run.rewrite()).size() > Words.tokens(question).size() ? 1 : 0;
        }
        assertThat(runs).hasSizeGreaterThan(200);
        // the keyword style is a quarter of the mix; some of its rewrites also nominalise a word
        assertThat(notKeywords).isGreaterThan(runs.size() / 2);
        // expansions and hypothetical answers say more than the question
        assertThat(longer).isGreaterThan(runs.size() / 5);
    }

    @Test
    void shouldSendTheModelFamilysPrefixBeforeTheQuery() {
        PipelineStyle bge = new PipelineStyle(Mix.of(RewriteStyle.KEYWORDS, 1), PipelineStyle.BGE, null,
                Mix.of(AnswerStyle.PLAIN, 1), List.of("I don't know."), 0.0);
        for (RunOutcome run : sound(bge, 50, 22)) {
            assertThat(run.embedText()).isEqualTo(PipelineStyle.BGE + run.query());
            assertThat(run.queryVector()).containsExactly(index.embedder().embed(run.query()));
        }
    }

    @Test
    void shouldAnswerSoundlyInMoreWaysThanTheGoldSpanOrItsSentence() {
        List<RunOutcome> runs = sound(FaultInjectionTest.STYLE, 800, 23);
        int answered = 0;
        int dressed = 0;
        Set<String> refusals = new HashSet<>();
        for (RunOutcome run : runs) {
            String answer = run.answer().text();
            if (run.answer().abstained()) {
                refusals.add(answer);
                continue;
            }
            answered++;
            Question q = run.question();
            Predicate<String> bare = a -> q.acceptableAnswers().stream().anyMatch(s -> Generator.sentenceCase(s).equals(a))
                    || run.context().stream().anyMatch(c -> Sentences.of(c.text()).contains(a));
            dressed += bare.test(answer) ? 0 : 1;
            assertThat(run.verdict().answerCorrect()).isEqualTo(q.answerable());
        }
        assertThat(answered).isGreaterThan(200);
        assertThat(dressed).isGreaterThan(answered / 3);
        assertThat(refusals).containsExactlyInAnyOrderElementsOf(FaultInjectionTest.REFUSALS);
    }

    @Test
    void shouldCutALongQueryAtTheClientsTokenLimitAndLabelItOnlyWhenItLostContent() {
        PipelineStyle capped = new PipelineStyle(Mix.of(RewriteStyle.HYDE, 1), PipelineStyle.NOMIC, 24,
                Mix.of(AnswerStyle.PLAIN, 1), List.of("I don't know."), 0.0);
        int cut = 0;
        int labeled = 0;
        for (int i = 0; i < 300; i++) {
            Question q = model.corpus().questions().get(i * 13 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, capped, Rand.forRun(24, 1, i));
            assertThat(WordPieces.count(run.embedText())).isLessThanOrEqualTo(24);
            assertThat(PipelineStyle.NOMIC + run.query()).startsWith(run.embedText());
            boolean lost = !EmbedFaults.lostContent(run.query(), run.embedText()).isEmpty();
            assertThat(run.verdict().stages().faulty(Stage.EMBED)).isEqualTo(lost);
            cut += run.embedText().length() < (PipelineStyle.NOMIC + run.query()).length() ? 1 : 0;
            labeled += lost ? 1 : 0;
        }
        assertThat(cut).isGreaterThan(50);
        assertThat(labeled).isPositive().isLessThanOrEqualTo(cut);
    }

    @Test
    void shouldEmbedTheWrongFieldNowAndThenAsANaturalFault() {
        PipelineStyle careless = new PipelineStyle(Mix.of(RewriteStyle.KEYWORDS, 1), PipelineStyle.NONE, null,
                Mix.of(AnswerStyle.PLAIN, 1), List.of("I don't know."), 0.2);
        int wrong = 0;
        for (int i = 0; i < 300; i++) {
            Question q = model.corpus().questions().get(i * 13 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, careless, new SplittableRandom(i));
            boolean embeddedQuery = run.embedText().equals(run.query());
            assertThat(run.verdict().stages().faulty(Stage.EMBED)).isEqualTo(!embeddedQuery);
            if (!embeddedQuery) {
                assertThat(run.embedText()).contains(q.question());
                wrong++;
            }
        }
        assertThat(wrong).isBetween(30, 100);
    }
}

package io.raglog.simulator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.corpus.CorpusModel;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Words;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each injected fault does to its stage what its label says, on real questions. */
class FaultInjectionTest {

    static final StackShape SHAPE = new StackShape(true, 10, 3, 512, GeneratorSkill.FRONTIER);

    static CorpusModel model;
    static ChunkIndex index;
    static RagEngine engine;

    @BeforeAll
    static void load() {
        model = CorpusModel.shipped();
        index = model.index(512);
        engine = new RagEngine(model.stats(), model.vocabulary());
    }

    /** Runs the answerable questions with a fault planted at {@code stage}, one run each. */
    private static void eachRun(Stage stage, int runs, java.util.function.Consumer<RunOutcome> check) {
        int done = 0;
        for (int i = 0; done < runs && i < model.corpus().questions().size(); i++) {
            Question q = model.corpus().questions().get(i * 7 % model.corpus().questions().size());
            if (!q.answerable()) {
                continue;
            }
            RunOutcome run = engine.run(q, SHAPE, index, stage, "I don't know.", Rand.forRun(9, 1, i));
            if (run.injected() == null) {
                assertThat(run.injectionSkipped()).isTrue();
                continue;
            }
            assertThat(run.injected().type().stage()).isEqualTo(stage);
            assertThat(run.verdict().origin()).isEqualTo(Label.ORIGIN_INJECTED);
            assertThat(run.verdict().stages().faulty(stage)).isTrue();
            check.accept(run);
            done++;
        }
        assertThat(done).isEqualTo(runs);
    }

    @Test
    void shouldLoseOrChangeAKeyTermInARewriteFault() {
        eachRun(Stage.REWRITE, 150, run -> {
            if (run.injected().type() == FaultType.REWRITE_CHANGED_MEANING) {
                assertThat(run.injected().detail()).contains("became");
            } else {
                assertThat(KeyTerms.lost(run.question().question(), run.rewrite())).isNotEmpty();
            }
            assertThat(run.embedText()).isEqualTo(run.rewrite());
        });
    }

    @Test
    void shouldDamageOnlyTheTextSentForEmbedding() {
        Map<FaultType, Integer> seen = new EnumMap<>(FaultType.class);
        eachRun(Stage.EMBED, 200, run -> {
            seen.merge(run.injected().type(), 1, Integer::sum);
            String sent = run.embedText();
            String query = run.query();
            assertThat(sent).isNotEqualTo(query);
            assertThat(run.queryVector()).containsExactly(index.embedder().embed(sent));
            switch (run.injected().type()) {
                case EMBED_TRUNCATED:
                    assertThat(query).startsWith(sent);
                    break;
                case EMBED_TYPO: {
                    List<String> a = Words.tokens(query);
                    List<String> b = Words.tokens(sent);
                    assertThat(b).hasSameSizeAs(a);
                    int changed = 0;
                    for (int i = 0; i < a.size(); i++) {
                        if (!a.get(i).equals(b.get(i))) {
                            changed++;
                            assertThat(editDistance(a.get(i), b.get(i))).isBetween(1, 2);
                        }
                    }
                    assertThat(changed).isBetween(1, 2);
                    break;
                }
                case EMBED_LOST_ENTITY:
                    assertThat(KeyTerms.lost(query, sent)).isNotEmpty();
                    break;
                default:
                    assertThat(sent).contains(query);
                    assertThat(sent.length()).isGreaterThan(query.length());
            }
        });
        assertThat(seen.keySet()).containsExactlyInAnyOrder(FaultType.EMBED_TYPO, FaultType.EMBED_TRUNCATED,
                FaultType.EMBED_LOST_ENTITY, FaultType.EMBED_UNRELATED_WORDS);
    }

    @Test
    void shouldReturnNoEvidenceFromAFaultyRetrieval() {
        eachRun(Stage.RETRIEVE, 120, run -> {
            assertThat(run.retrieved()).hasSize(10);
            assertThat(run.retrieved()).noneSatisfy(h -> assertThat(run.evidence()).contains(h.chunk()));
            if (run.injected().type() == FaultType.RETRIEVE_OFF_TOPIC) {
                assertThat(run.retrieved()).allSatisfy(h -> assertThat(h.chunk().title()).isNotEqualTo(run.title()));
            }
            for (int i = 1; i < run.retrieved().size(); i++) {
                assertThat(run.retrieved().get(i).score()).isLessThanOrEqualTo(run.retrieved().get(i - 1).score());
            }
        });
    }

    @Test
    void shouldPlaceTheEvidenceRightBelowTheRerankCutOff() {
        eachRun(Stage.RERANK, 100, run -> {
            List<RankedPassage> ranked = run.reranked();
            assertThat(run.context()).noneSatisfy(c -> assertThat(run.evidence()).contains(c));
            assertThat(run.evidence()).contains(ranked.get(3).chunk());
            assertThat(ranked.get(3).score()).isLessThanOrEqualTo(ranked.get(2).score());
            assertThat(run.retrieved()).anySatisfy(h -> assertThat(run.evidence()).contains(h.chunk()));
        });
    }

    @Test
    void shouldMakeTheAnswerUnfaithfulInAGeneratorFault() {
        Map<FaultType, Integer> seen = new EnumMap<>(FaultType.class);
        eachRun(Stage.GENERATE, 300, run -> {
            seen.merge(run.injected().type(), 1, Integer::sum);
            String answer = run.answer().text();
            String context = String.join("\n", run.context().stream().map(Chunk::text).toList());
            switch (run.injected().type()) {
                case GENERATE_UNSUPPORTED_CLAIM:
                    assertThat(Words.tokens(answer)).anySatisfy(t -> {
                        assertThat(t).matches("\\d+");
                        assertThat(context).doesNotContain(t);
                    });
                    break;
                case GENERATE_SWAPPED_FACT:
                case GENERATE_OMITTED_PART:
                case GENERATE_IGNORED_CONTEXT:
                    assertThat(AnswerMatch.contains(answer, run.question().acceptableAnswers())).isFalse();
                    assertThat(run.verdict().answerCorrect()).isFalse();
                    break;
                default:
                    throw new AssertionError("not an injected generator fault: " + run.injected());
            }
        });
        assertThat(seen).containsKeys(FaultType.GENERATE_UNSUPPORTED_CLAIM, FaultType.GENERATE_SWAPPED_FACT,
                FaultType.GENERATE_IGNORED_CONTEXT, FaultType.GENERATE_OMITTED_PART);
    }

    @Test
    void shouldLabelNaturalFaultsFromTheGoldEvidence() {
        int naturalRetrieval = 0;
        int naturalCut = 0;
        for (int i = 0; i < 1500; i++) {
            Question q = model.corpus().questions().get(i * 3 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, "I don't know.", Rand.forRun(4, 1, i));
            boolean retrieved = run.retrieved().stream().anyMatch(h -> run.evidence().contains(h.chunk()));
            boolean kept = run.context().stream().anyMatch(run.evidence()::contains);
            assertThat(run.verdict().stages().faulty(Stage.RETRIEVE)).isEqualTo(q.answerable() && !retrieved);
            assertThat(run.verdict().stages().faulty(Stage.RERANK)).isEqualTo(retrieved && !kept);
            assertThat(run.verdict().stages().faulty(Stage.EMBED)).isFalse();
            if (run.verdict().root() != null) {
                assertThat(run.verdict().origin()).isEqualTo(Label.ORIGIN_NATURAL);
            }
            naturalRetrieval += q.answerable() && !retrieved ? 1 : 0;
            naturalCut += retrieved && !kept ? 1 : 0;
        }
        assertThat(naturalRetrieval).isGreaterThan(50);
        assertThat(naturalCut).isGreaterThan(10);
    }

    @Test
    void shouldLeaveRetrievalUnlabeledOnUnanswerableQuestionsUnlessAFaultWasPlantedThere() {
        int unanswerable = 0;
        int planted = 0;
        for (int i = 0; i < 600; i++) {
            Question q = model.corpus().questions().get(i * 5 % model.corpus().questions().size());
            if (q.answerable()) {
                continue;
            }
            unanswerable++;
            // no log tells a retrieval on a question the corpus cannot answer from a retrieval that missed
            RunOutcome natural = engine.run(q, SHAPE, index, null, "I don't know.", Rand.forRun(6, 1, i));
            assertThat(natural.verdict().stages().retrieve()).isNull();
            assertThat(natural.verdict().stages().generate()).isNotNull();
            RunOutcome offTopic = engine.run(q, SHAPE, index, Stage.RETRIEVE, "I don't know.", Rand.forRun(6, 2, i));
            assertThat(offTopic.injected().type()).isEqualTo(FaultType.RETRIEVE_OFF_TOPIC);
            assertThat(offTopic.verdict().stages().retrieve()).isEqualTo(1);
            planted++;
        }
        assertThat(unanswerable).isGreaterThan(50);
        assertThat(planted).isEqualTo(unanswerable);
    }

    @Test
    void shouldSometimesAnswerCorrectlyWithoutSupport() {
        // The seeds' silent failure: evidence not in the context, answer right anyway (from the model's memory).
        int silent = 0;
        for (int i = 0; i < 2000; i++) {
            Question q = model.corpus().questions().get(i * 5 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, "I don't know.", Rand.forRun(5, 1, i));
            if (run.answer().naturalFault() != null
                    && run.answer().naturalFault().type() == FaultType.GENERATE_UNSUPPORTED_CLAIM
                    && run.verdict().answerCorrect()) {
                assertThat(run.context()).noneSatisfy(c -> assertThat(run.evidence()).contains(c));
                silent++;
            }
        }
        assertThat(silent).isGreaterThan(10);
    }

    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}

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
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.WordPieces;
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
    static final List<String> REFUSALS = List.of("I don't know.", "The context does not say.",
            "Sorry, I could not find that in the documents.");
    /** Every healthy variety at once, so the faults are checked against all of them. */
    static final PipelineStyle STYLE = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 1, RewriteStyle.PARAPHRASE, 1, RewriteStyle.EXPANSION, 1,
                    RewriteStyle.HYDE, 1),
            PipelineStyle.E5, null,
            Mix.of(AnswerStyle.PLAIN, 1, AnswerStyle.PARAPHRASED, 1, AnswerStyle.VERBOSE, 1, AnswerStyle.CITED, 1,
                    AnswerStyle.HEDGED, 1, AnswerStyle.LIST, 1),
            REFUSALS, 0.0);

    /** How a meaning change's detail names the word replaced and its replacement. */
    private static final java.util.regex.Pattern CHANGED = java.util.regex.Pattern.compile("\"(.+)\" became \"(.+)\"");

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
            RunOutcome run = engine.run(q, SHAPE, index, stage, STYLE, Rand.forRun(9, 1, i));
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
        int[] meaningChanges = {0};
        int[] inHydePassages = {0};
        eachRun(Stage.REWRITE, 150, run -> {
            if (run.injected().type() == FaultType.REWRITE_CHANGED_MEANING) {
                // the word replaced is one the question asked with, never the rewriter's own (a HyDE opener, its
                // stand-in for the unknown, its background sentence): only then is the question's meaning changed
                java.util.regex.Matcher m = CHANGED.matcher(run.injected().detail());
                assertThat(m.find()).as(run.injected().detail()).isTrue();
                assertThat(Words.tokens(run.question().question()).stream().map(Words::lower))
                        .as("%s -> %s (%s)", run.question().question(), run.rewrite(), run.injected())
                        .contains(Words.lower(m.group(1)));
                assertThat(run.rewrite()).contains(m.group(2));
                meaningChanges[0]++;
                // a HyDE rewrite with its background sentence: two sentences, the rewriter's words beside the question's
                inHydePassages[0] += run.rewrite().contains(". ") ? 1 : 0;
            } else {
                assertThat(KeyTerms.lost(run.question().question(), run.rewrite()))
                        .as("%s -> %s (%s)", run.question().question(), run.rewrite(), run.injected()).isNotEmpty();
            }
            assertThat(run.embedText()).isEqualTo(PipelineStyle.E5 + run.rewrite());
        });
        assertThat(meaningChanges[0]).isGreaterThanOrEqualTo(20);
        assertThat(inHydePassages[0]).as("meaning changes planted in HyDE rewrites with a background sentence").isPositive();
    }

    @Test
    void shouldDamageOnlyTheTextSentForEmbedding() {
        Map<FaultType, Integer> seen = new EnumMap<>(FaultType.class);
        java.util.Set<Integer> budgets = new java.util.TreeSet<>();
        java.util.Set<Integer> typoCounts = new java.util.TreeSet<>();
        eachRun(Stage.EMBED, 250, run -> {
            seen.merge(run.injected().type(), 1, Integer::sum);
            String sent = run.embedText();
            String query = run.query();
            assertThat(sent).isNotEqualTo(PipelineStyle.E5 + query).startsWith(PipelineStyle.E5);
            String body = sent.substring(PipelineStyle.E5.length());
            assertThat(run.queryVector()).containsExactly(index.embedder().embed(body));
            switch (run.injected().type()) {
                case EMBED_TRUNCATED:
                    // cut by a token budget, often inside a word: a prefix of what was meant, a content word lost
                    assertThat(PipelineStyle.E5 + query).startsWith(sent);
                    assertThat(EmbedFaults.lostContent(query, sent)).isNotEmpty();
                    budgets.add(WordPieces.count(sent));
                    break;
                case EMBED_TYPO: {
                    List<String> a = Words.tokens(query);
                    List<String> b = Words.tokens(body);
                    assertThat(b).hasSameSizeAs(a);
                    int changed = 0;
                    for (int i = 0; i < a.size(); i++) {
                        if (!a.get(i).equals(b.get(i))) {
                            changed++;
                            assertThat(keyboardEdits(a.get(i), b.get(i))).isBetween(1, 2);
                        }
                    }
                    assertThat(changed).isGreaterThanOrEqualTo(1);
                    typoCounts.add(changed);
                    break;
                }
                case EMBED_LOST_ENTITY:
                    assertThat(KeyTerms.lost(query, body)).as("%s -> %s", query, body).isNotEmpty();
                    break;
                case EMBED_WRONG_FIELD:
                    // the pipeline's code picked another field: the question in its chat history or its rewrite prompt
                    assertThat(body).contains(run.question().question());
                    assertThat(body).satisfiesAnyOf(t -> assertThat(t).startsWith("Chat History:\nHuman: "),
                            t -> assertThat(t).startsWith(RagEngine.REWRITE_PROMPT));
                    break;
                default:
                    throw new AssertionError("not an embed fault: " + run.injected());
            }
        });
        assertThat(seen.keySet()).containsExactlyInAnyOrder(FaultType.EMBED_TYPO, FaultType.EMBED_TRUNCATED,
                FaultType.EMBED_LOST_ENTITY, FaultType.EMBED_WRONG_FIELD);
        // varied parameters: several token budgets, and typo runs of one and of several words
        assertThat(budgets).hasSizeGreaterThan(3);
        assertThat(typoCounts).contains(1).anySatisfy(n -> assertThat(n).isGreaterThan(1));
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
    void shouldSayAWrongAnswerInTheModelsOwnStyleAsARightOneIs() {
        // plain answers, so that the form is the generator's own: the span, or the context's sentence that holds it
        PipelineStyle plain = new PipelineStyle(Mix.of(RewriteStyle.KEYWORDS, 1), PipelineStyle.NONE, null,
                Mix.of(AnswerStyle.PLAIN, 1), REFUSALS, 0.0);
        int[] right = new int[2];
        int[] wrong = new int[2];
        for (int i = 0; i < 3000; i++) {
            Question q = model.corpus().questions().get(i * 7 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, plain, Rand.forRun(31, 1, i));
            if (run.answer().abstained()) {
                continue;
            }
            boolean sentence = run.context().stream().anyMatch(c -> Sentences.of(c.text()).contains(
                    run.answer().text()));
            int[] counts = run.answer().naturalFault() == null ? right : wrong;
            counts[sentence ? 1 : 0]++;
        }
        // FRONTIER answers half the time in whole sentences; its natural wrong answers must not be told by being spans
        assertThat(wrong[0] + wrong[1]).isGreaterThan(100);
        assertThat(wrong[1]).as("wrong answers as whole sentences, of %d", wrong[0] + wrong[1])
                .isBetween((wrong[0] + wrong[1]) / 3, 2 * (wrong[0] + wrong[1]) / 3);
        assertThat(right[1]).as("right answers as whole sentences, of %d", right[0] + right[1])
                .isBetween((right[0] + right[1]) / 3, 2 * (right[0] + right[1]) / 3);
    }

    @Test
    void shouldBuryTheAnswerInTheMiddleOfALongPromptAndBlameTheOrderNotTheModel() {
        StackShape longPrompt = new StackShape(true, 6, null, 512, GeneratorSkill.FRONTIER);
        int buried = 0;
        for (int i = 0; buried < 15 && i < 3000; i++) {
            Question q = model.corpus().questions().get(i * 7 % model.corpus().questions().size());
            if (!q.answerable()) {
                continue;
            }
            RunOutcome run = engine.run(q, longPrompt, index, Stage.ASSEMBLE, STYLE, Rand.forRun(9, 1, i));
            if (run.injected() == null || run.injected().type() != FaultType.ASSEMBLE_EVIDENCE_BURIED) {
                continue;
            }
            buried++;
            List<io.raglog.simulator.corpus.Chunk> prompt = run.context();
            int at = -1;
            for (int p = 0; p < prompt.size(); p++) {
                if (run.evidence().contains(prompt.get(p))) {
                    at = p;
                }
            }
            // the whole evidence is in the prompt, inside it, and the answer did without it
            assertThat(at).isGreaterThan(0).isLessThan(prompt.size() - 1);
            // as a whole word: a wrong answer said as a sentence may hold "lacemakers" where the answer is "lace"
            assertThat(AnswerMatch.contains(run.answer().text(), q.acceptableAnswers())).as(run.answer().text())
                    .isFalse();
            assertThat(run.verdict().answerCorrect()).isFalse();
            assertThat(run.verdict().stages().faulty(Stage.ASSEMBLE)).isTrue();
            assertThat(run.verdict().stages().faulty(Stage.GENERATE)).isFalse();
        }
        assertThat(buried).isEqualTo(15);
    }

    @Test
    void shouldCutTheEvidenceByNoisyOrShortSightedRerankScores() {
        int noisy = 0;
        int shortSighted = 0;
        List<RunOutcome> runs = new java.util.ArrayList<>();
        eachRun(Stage.RERANK, 100, runs::add);
        for (RunOutcome run : runs) {
            List<RankedPassage> ranked = run.reranked();
            assertThat(run.context()).noneSatisfy(c -> assertThat(run.evidence()).contains(c));
            assertThat(run.retrieved()).anySatisfy(h -> assertThat(run.evidence()).contains(h.chunk()));
            assertThat(ranked).hasSameSizeAs(run.retrieved());
            // the scores the reranker gave, in its order: no evidence placed by hand between its neighbours
            for (int i = 1; i < ranked.size(); i++) {
                assertThat(ranked.get(i).score()).isLessThanOrEqualTo(ranked.get(i - 1).score());
            }
            if (run.injected().detail().contains("reads only the first")) {
                shortSighted++;
            } else {
                noisy++;
            }
        }
        assertThat(noisy).isPositive();
        assertThat(shortSighted).isPositive();
    }

    @Test
    void shouldMakeTheAnswerUnfaithfulInAGeneratorFault() {
        Map<FaultType, Integer> seen = new EnumMap<>(FaultType.class);
        java.util.Set<String> claims = new java.util.HashSet<>();
        eachRun(Stage.GENERATE, 300, run -> {
            seen.merge(run.injected().type(), 1, Integer::sum);
            String answer = run.answer().text();
            String context = String.join("\n", run.context().stream().map(Chunk::text).toList());
            switch (run.injected().type()) {
                case GENERATE_UNSUPPORTED_CLAIM: {
                    // a claim taken from a passage about something else: words the context never uses
                    java.util.Set<String> contextStems = new java.util.HashSet<>(Words.contentStems(context));
                    long foreign = Words.contentStems(answer).stream().filter(t -> !contextStems.contains(t)).count();
                    assertThat(foreign).isGreaterThanOrEqualTo(2);
                    claims.add(run.injected().detail());
                    break;
                }
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
        // not a handful of templates: (nearly) every claim is worded differently
        assertThat(claims).hasSizeGreaterThan(seen.get(FaultType.GENERATE_UNSUPPORTED_CLAIM) * 9 / 10);
    }

    @Test
    void shouldLabelNaturalFaultsFromTheGoldEvidence() {
        int naturalRetrieval = 0;
        int naturalCut = 0;
        for (int i = 0; i < 1500; i++) {
            Question q = model.corpus().questions().get(i * 3 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, STYLE, Rand.forRun(4, 1, i));
            boolean retrieved = run.retrieved().stream().anyMatch(h -> run.evidence().contains(h.chunk()));
            boolean kept = run.context().stream().anyMatch(run.evidence()::contains);
            boolean onSubject = retrievedOnSubject(run);
            assertThat(run.verdict().stages().faulty(Stage.RETRIEVE))
                    .isEqualTo(q.answerable() && !retrieved || !onSubject || !retrievedAskedPassage(run));
            boolean askedCut = !q.answerable() && retrievedAskedPassage(run) && !keptAskedPassage(run);
            assertThat(run.verdict().stages().faulty(Stage.RERANK)).isEqualTo(retrieved && !kept || askedCut);
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
    void shouldLeaveRetrievalUnlabeledOnUnanswerableQuestionsUnlessItsPassagesMissedTheOneAskedAbout() {
        int unanswerable = 0;
        int planted = 0;
        int naturallyOffTopic = 0;
        int missedWithinTheArticle = 0;
        int cutByTheReranker = 0;
        for (int i = 0; i < 600; i++) {
            Question q = model.corpus().questions().get(i * 5 % model.corpus().questions().size());
            if (q.answerable()) {
                continue;
            }
            unanswerable++;
            // no passage holds an answer to a question the corpus cannot answer, whatever retrieval does; passages
            // that miss the one it was asked about, while the store holds it, are a fault whatever the question:
            // other articles, or only other paragraphs of its own
            RunOutcome natural = engine.run(q, SHAPE, index, null, STYLE, Rand.forRun(6, 1, i));
            if (retrievedAskedPassage(natural)) {
                assertThat(natural.verdict().stages().retrieve()).isNull();
            } else {
                assertThat(natural.verdict().stages().retrieve()).isEqualTo(1);
                // the root is retrieval's own, or a rewrite or embedding before it that sent the query astray
                assertThat(natural.verdict().root().type().stage()).isIn(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE);
                if (retrievedOnSubject(natural)) {
                    missedWithinTheArticle++;
                    if (natural.verdict().root().type().stage() == Stage.RETRIEVE) {
                        assertThat(natural.verdict().root().type()).isEqualTo(FaultType.RETRIEVE_MISSED_ASKED_PASSAGE);
                        assertThat(natural.verdict().root().detail()).contains(q.relevantDocIds().get(0));
                    }
                } else {
                    naturallyOffTopic++;
                }
            }
            // the reranker owes it too: cutting it below the top n ranks the subject under other passages
            assertThat(natural.verdict().stages().rerank())
                    .isEqualTo(retrievedAskedPassage(natural) && !keptAskedPassage(natural) ? 1 : 0);
            cutByTheReranker += retrievedAskedPassage(natural) && !keptAskedPassage(natural) ? 1 : 0;
            assertThat(natural.verdict().stages().generate()).isNotNull();
            RunOutcome offTopic = engine.run(q, SHAPE, index, Stage.RETRIEVE, STYLE, Rand.forRun(6, 2, i));
            assertThat(offTopic.injected().type()).isEqualTo(FaultType.RETRIEVE_OFF_TOPIC);
            assertThat(offTopic.verdict().stages().retrieve()).isEqualTo(1);
            planted++;
        }
        assertThat(unanswerable).isGreaterThan(50);
        assertThat(planted).isEqualTo(unanswerable);
        assertThat(naturallyOffTopic).isPositive().isLessThan(unanswerable / 3);
        assertThat(missedWithinTheArticle).isPositive().isLessThan(unanswerable / 3);
        assertThat(cutByTheReranker).isPositive().isLessThan(unanswerable / 3);
    }

    @Test
    void shouldSometimesAnswerCorrectlyWithoutSupport() {
        // The seeds' silent failure: evidence not in the context, answer right anyway (from the model's memory).
        int silent = 0;
        for (int i = 0; i < 2000; i++) {
            Question q = model.corpus().questions().get(i * 5 % model.corpus().questions().size());
            RunOutcome run = engine.run(q, SHAPE, index, null, STYLE, Rand.forRun(5, 1, i));
            if (run.answer().naturalFault() != null
                    && run.answer().naturalFault().type() == FaultType.GENERATE_UNSUPPORTED_CLAIM
                    && run.verdict().answerCorrect()) {
                assertThat(run.context()).noneSatisfy(c -> assertThat(run.evidence()).contains(c));
                silent++;
            }
        }
        assertThat(silent).isGreaterThan(10);
    }

    /**
     * Edits from {@code a} to {@code b} when each is a keyboard slip (a letter dropped, doubled, swapped with its
     * neighbour, or hit on a neighbouring key); a large number when some edit is none of those.
     */
    static int keyboardEdits(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        int best = 99;
        for (String once : slips(a)) {
            if (once.equals(b)) {
                return 1;
            }
            for (String twice : slips(once)) {
                if (twice.equals(b)) {
                    best = 2;
                }
            }
        }
        return best;
    }

    private static java.util.Set<String> slips(String w) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (int i = 0; i < w.length(); i++) {
            out.add(w.substring(0, i) + w.substring(i + 1));
            out.add(w.substring(0, i + 1) + w.charAt(i) + w.substring(i + 1));
            if (i + 1 < w.length()) {
                out.add(w.substring(0, i) + w.charAt(i + 1) + w.charAt(i) + w.substring(i + 2));
            }
            for (char n : TextEdits.neighbours(w.charAt(i)).toCharArray()) {
                char c = Character.isUpperCase(w.charAt(i)) ? Character.toUpperCase(n) : n;
                out.add(w.substring(0, i) + c + w.substring(i + 1));
            }
        }
        return out;
    }

    /** Whether any retrieved passage is from the paragraph the question was asked about (SQuAD's). */
    private static boolean retrievedAskedPassage(RunOutcome run) {
        return run.retrieved().stream().anyMatch(h -> run.question().relevantDocIds().contains(h.chunk().docId()));
    }

    /** Whether the reranker kept, in its top n, any passage of the paragraph the question was asked about. */
    private static boolean keptAskedPassage(RunOutcome run) {
        return run.reranked().subList(0, Math.min(run.topN(), run.reranked().size())).stream()
                .anyMatch(p -> run.question().relevantDocIds().contains(p.chunk().docId()));
    }

    /** Whether any retrieved passage is from the question's article: read here from the run, not from the engine. */
    private static boolean retrievedOnSubject(RunOutcome run) {
        return run.retrieved().stream().anyMatch(h -> h.chunk().title().equals(run.title()));
    }
}

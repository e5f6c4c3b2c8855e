package io.raglog.simulator.pipeline;

import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.Stage;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.Bm25;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.TermStats;
import io.raglog.simulator.text.WordPieces;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Runs one question through the five stages of a pipeline, injecting at most one fault at the planned stage, and
 * labels every stage from the gold evidence. Vendor-neutral: a profile renders the outcome into API calls.
 */
public final class RagEngine {

    private final Rewriter rewriter;
    private final EmbedFaults embedFaults;
    private final Reranker reranker;
    private final Generator generator;

    public RagEngine(TermStats stats, Vocabulary vocabulary) {
        this.rewriter = new Rewriter(vocabulary);
        this.embedFaults = new EmbedFaults();
        this.reranker = new Reranker(new Bm25(stats));
        this.generator = new Generator(stats, vocabulary);
    }

    /** The stages a fault can be planted in for this question (retrieval and reranking faults need evidence). */
    public static List<Stage> injectable(StackShape shape, Question q) {
        List<Stage> out = new ArrayList<>();
        if (shape.rewrites()) {
            out.add(Stage.REWRITE);
        }
        out.add(Stage.EMBED);
        out.add(Stage.RETRIEVE);
        if (shape.reranks() && q.answerable()) {
            out.add(Stage.RERANK);
        }
        if (q.answerable()) {
            out.add(Stage.ASSEMBLE);
        }
        out.add(Stage.GENERATE);
        return out;
    }

    /**
     * @param injectAt the stage to plant a fault in, or null for a run left to its natural course
     * @param style how this pipeline's models phrase things when nothing goes wrong
     */
    public RunOutcome run(Question q, StackShape shape, ChunkIndex index, Stage injectAt, PipelineStyle style,
            SplittableRandom rng) {
        String title = index.corpus().document(q.relevantDocIds().get(0)).title();
        List<Chunk> evidenceList = index.evidence(q);
        Set<Chunk> evidence = new LinkedHashSet<>(evidenceList);
        Fault injected = null;
        boolean skipped = false;

        String rewrite = null;
        if (shape.rewrites()) {
            RewriteStyle rewriteStyle = style.rewrites().draw(rng);
            String background = rewriteStyle == RewriteStyle.HYDE ? background(q, index) : null;
            rewrite = rewriter.rewrite(q.question(), rewriteStyle, background, rng);
            if (injectAt == Stage.REWRITE) {
                Injection<String> i = rewriter.inject(q.question(), rewrite, rng);
                rewrite = i.output();
                injected = i.fault();
            }
        }
        String query = rewrite != null ? rewrite : q.question();

        String prefix = style.embedPrefix();
        EmbedFaults.Fields fields = new EmbedFaults.Fields(q.question(), history(index, q, rng),
                shape.rewrites() ? REWRITE_PROMPT + q.question() : null);
        String embedText = prefix + query;
        Fault embedNatural = null;
        if (injectAt == Stage.EMBED) {
            Injection<String> i = embedFaults.inject(query, prefix, fields, rng);
            embedText = i.output();
            injected = i.fault();
        } else if (Rand.chance(rng, style.wrongFieldRate())) {
            Injection<String> i = embedFaults.wrongField(prefix, fields, rng);
            embedText = i.output();
            embedNatural = i.fault();
        }
        Integer limit = style.embedTokenLimit();
        if (limit != null && WordPieces.count(embedText) > limit) {
            // The client cuts what it embeds at the model's budget, silently; only what it cut off says if it hurt.
            String cut = WordPieces.cut(embedText, limit);
            List<String> lost = EmbedFaults.lostContent(query, cut);
            if (embedNatural == null && injected == null && !lost.isEmpty()) {
                embedNatural = new Fault(FaultType.EMBED_TRUNCATED, "the embedding client cut the text at its "
                        + limit + "-token limit, losing " + String.join(", ", lost));
            }
            embedText = cut;
        }
        // The model family was trained with its prefix: the vector stands for what follows it.
        float[] vector = index.embedder().embed(embedText.startsWith(prefix) ? embedText.substring(prefix.length())
                : embedText);

        List<ChunkIndex.Hit> ranked = index.search(vector, shape.topK() + evidence.size() + 2);
        List<ChunkIndex.Hit> retrieved = new ArrayList<>(ranked.subList(0, Math.min(shape.topK(), ranked.size())));
        if (injectAt == Stage.RETRIEVE) {
            Injection<List<ChunkIndex.Hit>> i = breakRetrieval(q, title, index, vector, ranked, retrieved, evidence,
                    shape.topK(), rng);
            retrieved = i.output();
            injected = i.fault();
        }

        List<RankedPassage> reranked = null;
        List<Chunk> context = new ArrayList<>();
        if (shape.reranks()) {
            reranked = reranker.rerank(query, retrieved, rng);
            if (injectAt == Stage.RERANK) {
                Injection<List<RankedPassage>> i = reranker.disorder(query, retrieved, reranked, evidence,
                        shape.topN(), rng);
                if (i == null) {
                    skipped = true;
                } else {
                    reranked = i.output();
                    injected = i.fault();
                }
            }
            for (int i = 0; i < Math.min(shape.topN(), reranked.size()); i++) {
                context.add(reranked.get(i).chunk());
            }
        } else {
            retrieved.forEach(h -> context.add(h.chunk()));
        }

        List<Chunk> handedOn = context;
        ContextBudget budget = style.contextBudget().forRun(roomRandom(q, query, handedOn));
        List<Chunk> prompt = ContextAssembler.assemble(handedOn, budget).prompt();
        if (injectAt == Stage.ASSEMBLE) {
            Injection<List<Chunk>> i = rng.nextDouble() < BURIED_SHARE
                    ? ContextAssembler.buryAnswer(q, prompt, evidence) : null;
            if (i == null) {
                i = ContextAssembler.loseAnswer(q, handedOn, evidence, style.contextBudget(), rng);
            }
            if (i == null) {
                skipped = true;
            } else {
                prompt = i.output();
                injected = i.fault();
            }
        }
        Set<Chunk> promptEvidence = evidenceIn(q, prompt, evidence);
        boolean buried = injected != null && injected.type() == FaultType.ASSEMBLE_EVIDENCE_BURIED;

        boolean stopped = style.gate() != null
                && style.gate().stops(q, prompt, q.answerable() && !promptEvidence.isEmpty(), rng);
        if (stopped) {
            // nothing is generated: the run ends with the gate's reply, a fault of that step when the prompt could
            // have answered
            Answer none = new Answer(RelevanceGate.INSUFFICIENT, true, promptEvidence.isEmpty() ? null
                    : new Fault(FaultType.GENERATE_GATE_REFUSED, "the relevance gate judged a context that held the "
                            + "answer insufficient, and nothing was generated"));
            skipped |= injectAt == Stage.GENERATE; // no generator to plant a fault in
            Verdict verdict = label(q, title, index, shape, query, rewrite, embedNatural, retrieved, handedOn, prompt,
                    promptEvidence, evidence, none, injected);
            return new RunOutcome(q, title, rewrite, query, embedText, vector, List.copyOf(retrieved),
                    reranked == null ? null : List.copyOf(reranked), shape.topN(), List.copyOf(prompt), none,
                    evidenceList, injected, skipped, verdict, true);
        }

        Set<Chunk> topic = new HashSet<>();
        q.relevantDocIds().forEach(id -> topic.addAll(index.chunksOf(id)));
        // a model that lost the buried passage answers as it would without it; the fault is the order's, not its own
        Answer answer = generator.answer(q, prompt, buried ? Set.of() : promptEvidence, topic, shape.skill(),
                style.refusals(), rng);
        if (buried) {
            answer = AnswerMatch.contains(answer.text(), q.acceptableAnswers())
                    ? new Answer(Rand.pick(rng, style.refusals()), true, null)
                    : new Answer(answer.text(), answer.abstained(), null);
        }
        if (injectAt == Stage.GENERATE) {
            Injection<Answer> i = generator.inject(q, answer, prompt, title, rng);
            answer = i.output();
            injected = i.fault();
        }
        if (!answer.abstained()) {
            AnswerStyle dress = style.answers().draw(rng);
            answer = new Answer(AnswerDress.dress(answer.text(), dress, q, prompt, rng), false, answer.naturalFault());
        }

        Verdict verdict = label(q, title, index, shape, query, rewrite, embedNatural, retrieved, handedOn, prompt,
                promptEvidence, evidence, answer, injected);
        return new RunOutcome(q, title, rewrite, query, embedText, vector, List.copyOf(retrieved),
                reranked == null ? null : List.copyOf(reranked), shape.topN(), List.copyOf(prompt), answer,
                evidenceList, injected, skipped, verdict, false);
    }

    /**
     * How much room this run's prompt leaves its context, drawn from the run's own question, query and passages, not
     * from the run's random stream, so every other draw of every run is what it was before the room varied.
     */
    private static SplittableRandom roomRandom(Question q, String query, List<Chunk> handedOn) {
        long seed = q.questionId().hashCode() * 1_000_003L + query.hashCode();
        for (Chunk c : handedOn) {
            seed = seed * 31 + c.chunkId().hashCode();
        }
        return new SplittableRandom(seed);
    }

    /**
     * The prompt's passages that still hold the answer: an evidence chunk kept whole, or cut after the sentence
     * that holds it.
     */
    private static Set<Chunk> evidenceIn(Question q, List<Chunk> prompt, Set<Chunk> evidence) {
        Set<Chunk> out = new LinkedHashSet<>();
        Set<String> evidenceIds = new HashSet<>();
        evidence.forEach(c -> evidenceIds.add(c.chunkId()));
        for (Chunk c : prompt) {
            if (evidence.contains(c) || evidenceIds.contains(c.chunkId()) && q.answerable()
                    && AnswerMatch.contains(c.text(), q.acceptableAnswers())) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Of the assembly faults planted, the share tried as a buried answer first (where the prompt is long enough and
     * the answer's passage sat at an end); the rest, and those it cannot bury, lose the answer to the budget.
     */
    static final double BURIED_SHARE = 0.35;

    /** The rewrite prompt a pipeline fills in (what it embeds when its code picks the wrong field). */
    public static final String REWRITE_PROMPT = "Rewrite the following question for a search engine.\nQuestion: ";

    /**
     * What a model may know of the question's subject, for a hypothetical answer: the sentence of its article that
     * shares the most words with the question, without the answer (the model does not know it, or it would not ask).
     */
    private static String background(Question q, ChunkIndex index) {
        Set<String> stems = new HashSet<>(Words.contentStems(q.question()));
        String best = null;
        int bestShared = 0;
        for (Chunk c : index.chunksOf(q.relevantDocIds().get(0))) {
            for (String sentence : Sentences.of(c.text())) {
                if (sentence.length() > 260 || q.answerable() && AnswerMatch.contains(sentence, q.acceptableAnswers())
                        || !q.plausibleAnswers().isEmpty() && AnswerMatch.contains(sentence, q.plausibleAnswers())) {
                    continue;
                }
                int shared = (int) new HashSet<>(Words.contentStems(sentence)).stream().filter(stems::contains).count();
                if (shared > bestShared) {
                    bestShared = shared;
                    best = sentence;
                }
            }
        }
        return best;
    }

    /** An earlier exchange of the conversation: another user question and what the assistant said to it. */
    private static String history(ChunkIndex index, Question q, SplittableRandom rng) {
        List<Question> all = index.corpus().questions();
        Question earlier = all.get(rng.nextInt(all.size()));
        String reply = earlier.expectedAnswer() != null ? earlier.expectedAnswer() : "I don't know.";
        return "Human: " + earlier.question() + "\nAssistant: " + reply;
    }

    private Injection<List<ChunkIndex.Hit>> breakRetrieval(Question q, String title, ChunkIndex index, float[] vector,
            List<ChunkIndex.Hit> ranked, List<ChunkIndex.Hit> retrieved, Set<Chunk> evidence, int topK,
            SplittableRandom rng) {
        boolean evidenceRetrieved = retrieved.stream().anyMatch(h -> evidence.contains(h.chunk()));
        if (evidenceRetrieved && rng.nextDouble() < 0.65) {
            List<ChunkIndex.Hit> out = new ArrayList<>();
            List<String> lost = new ArrayList<>();
            for (ChunkIndex.Hit h : ranked) {
                if (evidence.contains(h.chunk())) {
                    if (retrieved.contains(h)) {
                        lost.add(h.chunk().chunkId());
                    }
                } else if (out.size() < topK) {
                    out.add(h);
                }
            }
            return new Injection<>(out, new Fault(FaultType.RETRIEVE_MISSING_EVIDENCE,
                    "the store's results lost the evidence (" + String.join(", ", lost) + ")"));
        }
        // Off-topic: the query went to the wrong place (another team's namespace, a stale index of other documents)
        // and the store did its job there: the passages nearest the query among the subjects it holds, none of them
        // this one. Not passages picked at random, which share no word with the question and tell themselves.
        Set<String> held = otherSubjects(index, title, rng);
        List<ChunkIndex.Hit> out = new ArrayList<>();
        List<ChunkIndex.Hit> elsewhere = new ArrayList<>();
        for (Chunk c : index.chunks()) {
            if (!c.title().equals(title) && !evidence.contains(c)) {
                (held.contains(c.title()) ? out : elsewhere).add(new ChunkIndex.Hit(c, index.similarity(vector, c)));
            }
        }
        if (out.size() < topK) {
            out.addAll(elsewhere); // a small corpus: the wrong place holds every other subject
        }
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return new Injection<>(List.copyOf(out.subList(0, Math.min(topK, out.size()))),
                new Fault(FaultType.RETRIEVE_OFF_TOPIC,
                        "the store returned passages about other subjects, none about " + title));
    }

    /** The subjects the wrong place holds: each of the corpus's others with even odds, at least one. */
    private static Set<String> otherSubjects(ChunkIndex index, String title, SplittableRandom rng) {
        List<String> others = index.chunks().stream().map(Chunk::title).filter(t -> !t.equals(title)).distinct()
                .toList();
        Set<String> held = new HashSet<>();
        for (String t : others) {
            if (rng.nextBoolean()) {
                held.add(t);
            }
        }
        if (held.isEmpty() && !others.isEmpty()) {
            held.add(Rand.pick(rng, others));
        }
        return held;
    }

    private Verdict label(Question q, String title, ChunkIndex index, StackShape shape, String query, String rewrite,
            Fault embedNatural, List<ChunkIndex.Hit> retrieved, List<Chunk> context, List<Chunk> prompt,
            Set<Chunk> promptEvidence, Set<Chunk> evidence, Answer answer, Fault injected) {
        List<Fault> natural = new ArrayList<>();
        Integer rewriteLabel = null;
        if (shape.rewrites()) {
            Fault f = injected != null && injected.type().stage() == Stage.REWRITE ? injected : lostKeyTerm(q, rewrite);
            rewriteLabel = f == null ? 0 : 1;
            addNatural(natural, f, injected);
        }
        Fault embedFault = injected != null && injected.type().stage() == Stage.EMBED ? injected : embedNatural;
        Integer embedLabel = embedFault == null ? 0 : 1;
        addNatural(natural, embedFault, injected);

        boolean evidenceRetrieved = retrieved.stream().anyMatch(h -> evidence.contains(h.chunk()));
        boolean onSubject = retrieved.stream().anyMatch(h -> h.chunk().title().equals(title));
        List<String> asked = q.answerable() ? List.of() : askedPassages(q, index);
        boolean askedRetrieved = retrieved.stream().anyMatch(h -> asked.contains(h.chunk().docId()));
        Fault retrieveFault;
        if (injected != null && injected.type().stage() == Stage.RETRIEVE) {
            retrieveFault = injected;
        } else if (!onSubject) {
            retrieveFault = new Fault(FaultType.RETRIEVE_OFF_TOPIC, "none of the " + retrieved.size()
                    + " retrieved passages is about " + title + ", which the store holds");
        } else if (q.answerable() && !evidenceRetrieved) {
            retrieveFault = new Fault(FaultType.RETRIEVE_MISSING_EVIDENCE, "none of the " + retrieved.size()
                    + " retrieved passages holds the answer \"" + q.expectedAnswer() + "\"");
        } else if (!asked.isEmpty() && !askedRetrieved) {
            retrieveFault = new Fault(FaultType.RETRIEVE_MISSED_ASKED_PASSAGE, "none of the " + retrieved.size()
                    + " retrieved passages is from " + asked.get(0) + ", the passage the question was asked about, "
                    + "which the store holds");
        } else {
            retrieveFault = null;
        }
        addNatural(natural, retrieveFault, injected);

        Integer rerankLabel = null;
        if (shape.reranks()) {
            boolean evidenceKept = context.stream().anyMatch(evidence::contains);
            Fault f;
            if (injected != null && injected.type().stage() == Stage.RERANK) {
                f = injected;
            } else if (evidenceRetrieved && !evidenceKept) {
                f = new Fault(FaultType.RERANK_EVIDENCE_BELOW_CUTOFF,
                        "the reranker cut the evidence below its top " + shape.topN());
            } else if (askedRetrieved && context.stream().noneMatch(c -> asked.contains(c.docId()))) {
                f = new Fault(FaultType.RERANK_ASKED_PASSAGE_BELOW_CUTOFF, "the reranker cut " + asked.get(0)
                        + ", the passage the question was asked about, below its top " + shape.topN());
            } else {
                f = null;
            }
            rerankLabel = f == null ? 0 : 1;
            addNatural(natural, f, injected);
        }
        // assembly: the answer was handed on (context) and did not reach the prompt (cut before it, or dropped)
        boolean evidenceHanded = context.stream().anyMatch(evidence::contains);
        Fault assembleFault = injected != null && injected.type().stage() == Stage.ASSEMBLE ? injected
                : q.answerable() && evidenceHanded && promptEvidence.isEmpty() ? lostByBudget(context, prompt, evidence)
                        : null;
        addNatural(natural, assembleFault, injected);

        Fault generateFault = injected != null && injected.type().stage() == Stage.GENERATE ? injected
                : answer.naturalFault();
        addNatural(natural, generateFault, injected);

        LabelStages stages = new LabelStages(rewriteLabel, embedLabel, retrieveLabel(q, retrieveFault),
                rerankLabel, assembleFault == null ? 0 : 1, generateFault == null ? 0 : 1);
        boolean correct = q.answerable()
                ? !answer.abstained() && AnswerMatch.contains(answer.text(), q.acceptableAnswers())
                : answer.abstained();
        if (injected != null) {
            return new Verdict(stages, injected, Label.ORIGIN_INJECTED, correct);
        }
        return natural.isEmpty() ? new Verdict(stages, null, null, correct)
                : new Verdict(stages, natural.get(0), Label.ORIGIN_NATURAL, correct);
    }

    /**
     * Retrieval's label. For a question the corpus does not answer, retrieval's passages hold no answer whatever the
     * retriever does, and that is the content's trouble, not retrieval's: the engine leaves retrieval null there, and
     * the label written for the run ({@code Simulator.label}) calls it sound beside the knowledge gap. Passages that
     * miss the question's subject are another matter: the store holds the passage the question was asked about and
     * returned none of it (other articles, or only other paragraphs of its own), which the passages themselves show,
     * planted or not, and which a passage the pipeline is known to hold can confirm. That is retrieval's fault on any
     * question.
     */
    private static Integer retrieveLabel(Question q, Fault retrieveFault) {
        if (!q.answerable() && retrieveFault == null) {
            return null;
        }
        return retrieveFault == null ? 0 : 1;
    }

    /**
     * On a question the corpus does not answer, the ranking stages still owe the passage the question was asked about
     * (SQuAD's paragraph, which holds its plausible answer and most of its words): relevance is the question's
     * subject, which an unanswerable question has, not its answer. A store that returned only its article's other
     * paragraphs missed the subject as surely as one that returned other articles (an article is a whole city or war,
     * a paragraph what the question is about), and a reranker that cut it below its top n ranked the subject under
     * passages about something else. Assembly and generation are judged by the answer, which there is none of. The
     * paragraphs the store holds; empty when it holds none (a corpus without the link).
     */
    private static List<String> askedPassages(Question q, ChunkIndex index) {
        return q.relevantDocIds().stream().filter(id -> !index.chunksOf(id).isEmpty()).toList();
    }

    /** The pipeline's usual budget lost the answer: the passage holding it cut short of it, or not there at all. */
    private static Fault lostByBudget(List<Chunk> handedOn, List<Chunk> prompt, Set<Chunk> evidence) {
        Chunk holder = handedOn.stream().filter(evidence::contains).findFirst().orElseThrow();
        int rank = handedOn.indexOf(holder) + 1;
        boolean cut = prompt.stream().anyMatch(c -> c.chunkId().equals(holder.chunkId()));
        return cut ? new Fault(FaultType.ASSEMBLE_EVIDENCE_CUT, "the context budget cut passage " + rank + " of "
                + handedOn.size() + " (" + holder.chunkId() + ") before the answer")
                : new Fault(FaultType.ASSEMBLE_EVIDENCE_DROPPED, "passage " + rank + " of " + handedOn.size() + " ("
                        + holder.chunkId() + "), which holds the answer, did not fit the context budget");
    }

    private static void addNatural(List<Fault> natural, Fault f, Fault injected) {
        if (f != null && f != injected) {
            natural.add(f);
        }
    }

    private static Fault lostKeyTerm(Question q, String rewrite) {
        List<KeyTerms.Term> lost = KeyTerms.lost(q.question(), rewrite);
        if (lost.isEmpty()) {
            return null;
        }
        KeyTerms.Term t = lost.get(0);
        FaultType type = t.kind() == KeyTerms.Kind.NAME ? FaultType.REWRITE_DROPPED_NAME
                : t.kind() == KeyTerms.Kind.NUMBER ? FaultType.REWRITE_DROPPED_NUMBER : FaultType.REWRITE_DROPPED_DATE;
        return new Fault(type, "the rewrite dropped the " + t.kind().name().toLowerCase(java.util.Locale.ROOT) + " \""
                + t.text() + "\" of the question");
    }
}

package io.raglog.simulator;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelSession;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.CorpusModel;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.corpus.QuestionPools;
import io.raglog.simulator.output.EmissionMerger;
import io.raglog.simulator.output.OtlpBatcher;
import io.raglog.simulator.output.SimulationSink;
import io.raglog.simulator.pipeline.Fault;
import io.raglog.simulator.pipeline.RagEngine;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.profile.OtelLlamaIndexProfile;
import io.raglog.simulator.profile.Profile;
import io.raglog.simulator.profile.Profiles;
import io.raglog.simulator.profile.Rendered;
import io.raglog.simulator.session.SessionDesk;
import io.raglog.simulator.session.SessionMarks;
import io.raglog.simulator.wire.OtlpSpan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Simulates RAG pipelines answering the corpus's questions: each run is one question through one profile's stack,
 * with at most one injected fault; the calls of the runs in flight interleave as a proxy would capture them, and one
 * label line per run says which stages went wrong. A plain library: the CLI, the tests and the benchmarks call it.
 */
public final class Simulator {

    /** Chunks re-indexed per index-building batch: above the "many inputs" line, as bulk ingestion is. */
    static final int INDEX_BATCH = 32;
    static final double ANSWERABLE_SHARE = 0.7;
    private static final long STREAM_RUNS = 1;
    private static final long STREAM_INDEXING = 2;
    private static final long STREAM_QUESTIONS = 3;
    /** Its own stream, so a simulation without sessions draws exactly what it drew before they existed. */
    private static final long STREAM_SESSIONS = 4;

    private final SimulatorOptions options;
    private final Corpus corpus;
    private final List<Profile> profiles;
    private final RagEngine engine;
    private final Map<Integer, ChunkIndex> indexes = new HashMap<>();
    private final QuestionPools questions;
    /** Null when the simulation has no sessions: every run a stranger's single question. */
    private final SessionDesk sessions;

    public Simulator(SimulatorOptions options) {
        this.options = options;
        CorpusModel model = options.corpus() != null ? CorpusModel.of(options.corpus()) : CorpusModel.shipped();
        this.corpus = model.corpus();
        this.profiles = Profiles.select(options.profiles());
        // Questions only from the split's articles, without replacement; the knowledge base stays the whole corpus.
        this.questions = new QuestionPools(corpus, options.articles(), ANSWERABLE_SHARE,
                pass -> Rand.forRun(options.seed(), STREAM_QUESTIONS, pass));
        this.sessions = options.sessions().enabled() ? new SessionDesk(options.sessions(),
                options.articles() == null ? corpus.questions()
                        : ArticleSplits.questionsOf(corpus, new LinkedHashSet<>(options.articles())),
                ArticleSplits::articleOf) : null;
        this.engine = new RagEngine(model.stats(), model.vocabulary());
        // Indexed before any run: pipelines index their corpus ahead of serving questions.
        for (Profile p : profiles) {
            indexes.put(p.shape().chunkSize(), model.index(p.shape().chunkSize()));
        }
    }

    public List<Profile> profiles() {
        return profiles;
    }

    public ChunkIndex index(Profile profile) {
        return indexes.get(profile.shape().chunkSize());
    }

    public Corpus corpus() {
        return corpus;
    }

    public QuestionPools questions() {
        return questions;
    }

    public SimulationSummary run(SimulationSink sink) {
        return run(sink, message -> {});
    }

    /** @param progress receives a line now and then on long runs (wall-clock rates: never part of the output) */
    public SimulationSummary run(SimulationSink sink, Consumer<String> progress) {
        SimulationSummary summary = new SimulationSummary();
        OtlpBatcher batcher = new OtlpBatcher(sink, OtelLlamaIndexProfile.SCOPE, OtelLlamaIndexProfile.SCOPE_VERSION);
        EmissionMerger merger = new EmissionMerger(sink, batcher);
        long wallStart = System.nanoTime();
        int every = Math.max(1000, options.runs() / 10);
        Instant arrival = options.clockStart();

        for (int i = 0; i < options.runs(); i++) {
            SplittableRandom rng = Rand.forRun(options.seed(), STREAM_RUNS, i);
            Profile profile = profiles.get(i % profiles.size());
            ChunkIndex index = index(profile);
            double gapSeconds = -Math.log(1 - rng.nextDouble()) / options.arrivalRatePerSecond();
            // Microseconds, as the proxy's clock records them.
            arrival = arrival.plusNanos(Math.round(gapSeconds * 1e6) * 1000);
            pace(i, wallStart);

            int ofProfile = i / profiles.size();
            if (options.indexEvery() > 0 && ofProfile % options.indexEvery() == options.indexEvery() - 1) {
                SplittableRandom indexRng = Rand.forRun(options.seed(), STREAM_INDEXING, i);
                int batchNumber = ofProfile / options.indexEvery();
                emit(merger, options.embeddingPlan().indexing(profile.pipeline(),
                        profile.renderIndexing(batch(index, batchNumber), index, arrival, indexRng)), summary);
                summary.addIndexBatch();
            }

            int cyclesBefore = questions.cycles();
            SplittableRandom sessionRng = Rand.forRun(options.seed(), STREAM_SESSIONS, i);
            SessionDesk.Turn turn = sessions == null ? null
                    : sessions.next(profile.pipeline(), arrival, sessionRng, questions::next);
            Question q = turn == null ? questions.next(rng.nextDouble()) : turn.question();
            if (questions.cycles() > cyclesBefore) {
                progress.accept("warning: run " + (i + 1) + " exhausted a question pool of "
                        + (options.split() == null ? "the corpus" : "split " + options.split())
                        + "; questions repeat from here on");
            }
            Stage injectAt = null;
            if (Rand.chance(rng, options.faultRate())) {
                injectAt = Rand.pick(rng, RagEngine.injectable(profile.shape(), q));
            }
            RunOutcome outcome = engine.run(q, profile.shape(), index, injectAt, profile.style(), rng);
            Rendered rendered = options.embeddingPlan().run(profile.pipeline(), ofProfile,
                    profile.renderRun(outcome, arrival, rng));
            if (turn != null) {
                rendered = SessionMarks.withSession(rendered, turn.session().id());
            }
            emit(merger, rendered, summary);
            Label label = options.embeddingPlan().label(label(profile, outcome, rendered, arrival), ofProfile);
            if (turn != null) {
                label = label.withSession(new LabelSession(turn.session().user(), turn.session().id(),
                        turn.session().turns(), turn.kind(), turn.previousRunId(), turn.reaskOf()));
                boolean badAnswer = !outcome.verdict().answerCorrect() || outcome.answer().abstained();
                sessions.answered(turn, label.runId(), arrival, badAnswer, profile.pipeline(), sessionRng);
            }
            sink.label(label);
            summary.add(label, outcome.injectionSkipped());
            merger.releaseUpTo(arrival);

            if ((i + 1) % every == 0 && i + 1 < options.runs()) {
                double seconds = (System.nanoTime() - wallStart) / 1e9;
                progress.accept(String.format(java.util.Locale.ROOT, "simulated %d/%d runs (%.0f runs/s)", i + 1,
                        options.runs(), (i + 1) / Math.max(seconds, 1e-9)));
            }
        }
        merger.releaseAll();
        summary.setOtlp(batcher.requests(), batcher.spans());
        summary.setQuestionPool(options.split(), questions.answerableCount(), questions.unanswerableCount(),
                questions.cycles());
        sink.summary(summary.toJson());
        return summary;
    }

    private static void emit(EmissionMerger merger, Rendered rendered, SimulationSummary summary) {
        for (CallEvent call : rendered.calls()) {
            merger.add(call);
        }
        for (OtlpSpan span : rendered.spans()) {
            merger.add(span);
        }
        summary.addCalls(rendered.calls().size());
    }

    private static List<Chunk> batch(ChunkIndex index, int batchNumber) {
        List<Chunk> chunks = index.chunks();
        List<Chunk> out = new ArrayList<>(INDEX_BATCH);
        int start = (int) ((long) batchNumber * INDEX_BATCH % chunks.size());
        for (int k = 0; k < Math.min(INDEX_BATCH, chunks.size()); k++) {
            out.add(chunks.get((start + k) % chunks.size()));
        }
        return out;
    }

    /** Holds run {@code i} back until its wall-clock slot when a steady rate was asked for. */
    private void pace(int i, long wallStart) {
        if (options.paceRunsPerSecond() == null) {
            return;
        }
        long due = wallStart + Math.round(i * 1e9 / options.paceRunsPerSecond());
        long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pacing", e);
            }
        }
    }

    /**
     * The run's label (v3). A question the corpus does not answer is a knowledge gap: the content's fault, not a
     * stage's, so retrieval on it is sound unless its passages left the question's subject, planted or not (the
     * engine leaves it null otherwise).
     */
    static Label label(Profile profile, RunOutcome outcome, Rendered rendered, Instant arrival) {
        Fault root = outcome.verdict().root();
        Question q = outcome.question();
        List<String> evidence = new ArrayList<>();
        outcome.evidence().forEach(c -> evidence.add(c.chunkId()));
        boolean knowledgeGap = !q.answerable();
        LabelStages stages = outcome.verdict().stages();
        if (knowledgeGap && stages.retrieve() == null) {
            stages = new LabelStages(stages.rewrite(), stages.embed(), 0, stages.rerank(), stages.assemble(),
                    stages.generate());
        }
        return new Label(SchemaIds.LABEL_V3,
                RunIds.of(profile.pipeline(), rendered.runHint(), rendered.generatorEventId()),
                profile.pipeline(), profile.name(), q.questionId(), q.question(), rendered.runHint(),
                rendered.generatorEventId(), stages,
                root == null ? null : root.type().stage().id(), root == null ? null : root.type().id(),
                outcome.verdict().origin(), root == null ? null : root.detail(), outcome.verdict().answerCorrect(),
                q.answerable(), q.expectedAnswer(), outcome.answer().text(), evidence, arrival, knowledgeGap);
    }
}

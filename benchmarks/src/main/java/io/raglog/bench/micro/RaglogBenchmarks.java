package io.raglog.bench.micro;

import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.PromptAnatomy;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureAssembler;
import io.raglog.checks.FeatureVector;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.checks.RuleChecks;
import io.raglog.checks.RunTexts;
import io.raglog.checks.Terms;
import io.raglog.ingest.CallEventDecoder;
import io.raglog.job.DefaultBundle;
import io.raglog.llm.ChatRequest;
import io.raglog.llm.Judge;
import io.raglog.llm.Judges;
import io.raglog.llm.LlmCheck;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.OpenAiProvider;
import io.raglog.llm.Prompts;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One operation of each step a run goes through, on simulated traffic: decode + classify one call, link one run's
 * calls into a run, the rule checks of a run, embed one passage (cold: the model; cached: a cache hit), assemble a
 * run's feature vector, score a run with the shipped bundle. Each op cycles through realistic inputs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RaglogBenchmarks {

    static final int RUNS = 200;
    /** Fewer where set-up embeds every text: a dozen runs a second at best on a busy machine. */
    static final int CHECKED_RUNS = 40;
    static final long SEED = 7;

    /** Simulated calls and the runs they assemble into: no model loaded. */
    @State(Scope.Thread)
    public static class Traffic {
        SimulatedTraffic traffic;
        CallClassifier classifier;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            traffic = SimulatedTraffic.generate(RUNS, SEED);
            classifier = BuiltInAdapters.classifier();
        }

        SimulatedTraffic.LinkedRun nextRun() {
            next = (next + 1) % traffic.runs().size();
            return traffic.runs().get(next);
        }

        byte[] nextPayload() {
            next = (next + 1) % traffic.payloads().size();
            return traffic.payloads().get(next);
        }
    }

    /**
     * As many runs as a job's per-thread memos see miss about as often as in a job: 2,000 simulated runs pass some
     * 6,000 distinct texts, past the 4,096 a memo keeps, where the {@link Traffic}'s 200 runs are all remembered after
     * the first cycle.
     */
    @State(Scope.Thread)
    public static class JobTraffic {
        static final int JOB_RUNS = 2_000;
        SimulatedTraffic traffic;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            traffic = SimulatedTraffic.generate(JOB_RUNS, SEED);
        }

        SimulatedTraffic.LinkedRun nextRun() {
            next = (next + 1) % traffic.runs().size();
            return traffic.runs().get(next);
        }
    }

    /**
     * The {@link JobTraffic}'s runs as a job's checks meet them: each read anew from its JSON before the op, so that
     * every text is a fresh String (as the runs handed over are deserialized), whose hash is computed once per run and
     * whose memo hits compare the whole text. The {@link JobTraffic}'s Strings are the same objects cycle after
     * cycle: there a memo hit is an identity compare, which no job sees.
     */
    @State(Scope.Thread)
    public static class FreshJobTraffic {
        List<byte[]> runs;
        int next;
        Run run;

        @Setup(Level.Trial)
        public void setUp() {
            runs = SimulatedTraffic.generate(JobTraffic.JOB_RUNS, SEED).runs().stream()
                    .map(r -> Json.writeBytes(r.run()))
                    .toList();
        }

        @Setup(Level.Invocation)
        public void readNextRun() {
            next = (next + 1) % runs.size();
            run = Json.read(runs.get(next), Run.class);
        }
    }

    /** The embedding model, the passages of the simulated runs, and a cache already holding all of them. */
    @State(Scope.Thread)
    public static class Embedding {
        MiniLmEmbedder model;
        CachedEmbedder cached;
        List<String> passages;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            SimulatedTraffic traffic = SimulatedTraffic.generate(CHECKED_RUNS, SEED);
            Set<String> texts = new LinkedHashSet<>();
            for (SimulatedTraffic.LinkedRun r : traffic.runs()) {
                if (r.run().stages().retrieve() != null && r.run().stages().retrieve().passages() != null) {
                    for (Passage p : r.run().stages().retrieve().passages()) {
                        if (p.text() != null) {
                            texts.add(p.text());
                        }
                    }
                }
            }
            passages = new ArrayList<>(texts);
            model = new MiniLmEmbedder();
            cached = new CachedEmbedder(model, 100_000);
            passages.forEach(p -> cached.embed(List.of(p)));
        }

        String nextPassage() {
            next = (next + 1) % passages.size();
            return passages.get(next);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            model.close();
        }
    }

    /** Runs after their cheap and (offline-judged) LLM checks, and the shipped bundle's scorer. */
    @State(Scope.Thread)
    public static class Checked {
        List<CheckedRun> cheap = new ArrayList<>();
        List<LlmResult> llm = new ArrayList<>();
        List<ScoringInput> inputs = new ArrayList<>();
        Scorer scorer;
        ModelBundle bundle;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            SimulatedTraffic traffic = SimulatedTraffic.generate(CHECKED_RUNS, SEED);
            try (MiniLmEmbedder model = new MiniLmEmbedder()) {
                CachedEmbedder embedder = new CachedEmbedder(model, 100_000);
                CheapChecks checks = new CheapChecks(embedder);
                Judge judge = Judges.create(LlmSettings.defaults(), embedder);
                LlmChecks llmChecks = new LlmChecks(judge, false);
                for (SimulatedTraffic.LinkedRun r : traffic.runs()) {
                    CheckedRun c = checks.apply(r.run());
                    LlmResult l = llmChecks.run(r.run()).join();
                    cheap.add(c);
                    llm.add(l);
                    RunFeatures f = FeatureAssembler.assemble(c, l.features(), l.findings(), l.evidenceFlow(),
                            l.usage());
                    inputs.add(ScoringInput.of(r.run(), f));
                }
                judge.close();
            }
            bundle = DefaultBundle.load();
            scorer = new Scorer(bundle);
        }

        int nextIndex() {
            next = (next + 1) % cheap.size();
            return next;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            bundle.close();
        }
    }

    /** What the job's LLM judge builds for a run's calls: the prompts and an OpenAI-compatible body for each. */
    @State(Scope.Thread)
    public static class LlmRequests {
        Prompts prompts;
        OpenAiProvider provider;

        @Setup(Level.Trial)
        public void setUp() {
            LlmSettings settings = LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "openai",
                    LlmSettings.MODEL, "gpt-4o-mini"));
            prompts = new Prompts(settings.maxOutputTokens());
            provider = new OpenAiProvider(settings);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            provider.close();
        }
    }

    @Benchmark
    public void llmRequests(Traffic t, LlmRequests l, Blackhole out) {
        var run = t.nextRun().run();
        Prompts.RunPrompts prompts = l.prompts.forRun(run);
        for (LlmCheck check : LlmCheck.forRun(run, false)) {
            ChatRequest request = prompts.request(check);
            out.consume(l.provider.requestBody(request));
        }
    }

    /** The chat prompts of the simulated runs (rewriters' and generators'), as the adapters read them. */
    @State(Scope.Thread)
    public static class ChatPrompts {
        List<List<ChatMessage>> prompts = new ArrayList<>();
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            for (SimulatedTraffic.LinkedRun r : SimulatedTraffic.generate(RUNS, SEED).runs()) {
                for (ClassifiedCall c : r.calls()) {
                    if (c.detail() instanceof ChatDetail chat) {
                        prompts.add(chat.messages());
                    }
                }
            }
        }

        List<ChatMessage> nextPrompt() {
            next = (next + 1) % prompts.size();
            return prompts.get(next);
        }
    }

    @Benchmark
    public Classification decodeAndClassifyCall(Traffic t) {
        CallEventDecoder.Decoded decoded = CallEventDecoder.decode(t.nextPayload());
        return decoded.ok() ? t.classifier.classify(decoded.event()) : null;
    }

    /** Reading a chat prompt's question and context block alone: a quarter of classifying a call (JFR). */
    @Benchmark
    public PromptAnatomy.Parsed parsePrompt(ChatPrompts p) {
        return PromptAnatomy.parse(p.nextPrompt());
    }

    @Benchmark
    public List<RunLinker.Assembled> assembleRun(Traffic t) {
        SimulatedTraffic.LinkedRun r = t.nextRun();
        return RunLinker.link(r.run().pipeline(), r.run().runHint(), r.calls(), Long.MAX_VALUE / 4,
                AssemblySettings.DEFAULTS);
    }

    @Benchmark
    public FeatureVector ruleChecks(Traffic t) {
        FeatureVector features = new FeatureVector();
        List<Finding> findings = new ArrayList<>();
        RuleChecks.apply(t.nextRun().run(), features, findings);
        return features;
    }

    /**
     * What the known passages read of a run's words, at a job's memo hits ({@link JobTraffic}): the content stems of
     * its question and of every passage it was handed (a lookup's question words, and the words it learns each passage
     * by). The word index's sums are not here: they need a pipeline's keyed state.
     */
    @Benchmark
    public void knownPassagesLookup(JobTraffic t, Blackhole out) {
        readKnownPassagesWords(t.nextRun().run(), out);
    }

    /**
     * The known passages' words and then the rule checks of the same run, as the one task runs them, at a job's memo
     * hits: both read the same texts' words.
     */
    /** As {@link #knownPassagesThenRuleChecks}, on runs whose texts are fresh Strings each time, as in a job. */
    @Benchmark
    public FeatureVector knownPassagesThenRuleChecksFreshTexts(FreshJobTraffic t, Blackhole out) {
        Run run = t.run;
        readKnownPassagesWords(run, out);
        FeatureVector features = new FeatureVector();
        RuleChecks.apply(run, features, new ArrayList<>());
        return features;
    }

    @Benchmark
    public FeatureVector knownPassagesThenRuleChecks(JobTraffic t, Blackhole out) {
        var run = t.nextRun().run();
        readKnownPassagesWords(run, out);
        FeatureVector features = new FeatureVector();
        RuleChecks.apply(run, features, new ArrayList<>());
        return features;
    }

    private static void readKnownPassagesWords(Run run, Blackhole out) {
        if (run.question() != null) {
            out.consume(Terms.contentStems(run.question()));
        }
        for (Passage p : RunTexts.allPassages(run)) {
            if (p.text() != null) {
                out.consume(Terms.contentStems(p.text()));
            }
        }
    }

    @Benchmark
    public List<float[]> embedPassageCold(Embedding e) {
        return e.model.embed(List.of(e.nextPassage()));
    }

    @Benchmark
    public List<float[]> embedPassageCached(Embedding e) {
        return e.cached.embed(List.of(e.nextPassage()));
    }

    @Benchmark
    public RunFeatures assembleFeatures(Checked c) {
        int i = c.nextIndex();
        LlmResult l = c.llm.get(i);
        return FeatureAssembler.assemble(c.cheap.get(i), l.features(), l.findings(), l.evidenceFlow(), l.usage());
    }

    @Benchmark
    public Verdict scoreRun(Checked c) {
        return c.scorer.score(c.inputs.get(c.nextIndex()), Instant.EPOCH);
    }
}

package io.raglog.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.cli.ReplayCommand;
import io.raglog.job.JobSettings;
import io.raglog.job.TopologySettings;
import io.raglog.proxy.LoggingProxy;
import io.raglog.proxy.ProxyConfig;
import io.raglog.proxy.Route;
import io.raglog.proxy.SinkSpec;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.CorpusModel;
import io.raglog.simulator.corpus.Document;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.HashedEmbedder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * Runs one of the JavaScript RAG clients of {@code src/test/js-clients} (the npm packages teams install, pinned in its
 * lock file) through raglog's logging proxy to {@link StandInApis}, and replays what the proxy recorded through the
 * job's topology: the path a team's own traffic takes, with only the paid APIs stood in.
 */
final class JsRagClient {

    /** How a client gets each question's embedded query wrong, in turn ({@code query-faults.mjs}). */
    static final List<String> EMBED_FAULTS = List.of("none", "prefix", "truncate", "typo", "history");
    /** The two that are no fault: the query as it is, and behind a model's instruction. */
    static final Set<String> HEALTHY = Set.of("none", "prefix");

    /** The keys the clients send, shaped like real ones: neither the proxy's recording nor a trace may hold them. */
    private static final String OPENAI_KEY = "sk-proj-standin0000000000000000000000000000";
    private static final String COHERE_KEY = "standin-cohere-key-000000000000000000000";

    private static final Path SOURCES = Path.of("src", "test", "js-clients");
    private static final Path INSTALLED = Path.of("target", "js-clients");
    private static boolean installed;

    private JsRagClient() {}

    /** The Flink cluster a test class replays its recordings on: one task manager, two slots. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(2)
                .build());
    }

    /**
     * The clients' packages, installed once from the lock file into the build directory by {@code npm ci}; Node.js
     * and npm first, by the project's {@code scripts/install-test-packages.sh}, when the machine lacks them.
     */
    static synchronized void install() throws IOException, InterruptedException {
        if (installed) {
            return;
        }
        if (!onPath("node") || !onPath("npm")) {
            Path script = Path.of("..", "scripts", "install-test-packages.sh").toAbsolutePath().normalize();
            run(script.getParent(), Map.of(), Duration.ofMinutes(10), script.toString());
        }
        assertThat(onPath("node") && onPath("npm")).as("Node.js and npm (scripts/install-test-packages.sh)").isTrue();
        Files.createDirectories(INSTALLED);
        try (var files = Files.list(SOURCES)) {
            for (Path file : files.toList()) {
                Files.copy(file, INSTALLED.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        run(INSTALLED, Map.of(), Duration.ofMinutes(5), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
        installed = true;
    }

    /**
     * What a client was asked: the knowledge base, the questions, how each one's embedded query goes wrong, the
     * characters its prompt's context may take (null: no budget), the questions whose answer a client that can
     * stream asks for as a stream, whether a relevance gate asks first, and whether the reranked passages are
     * compressed by an LLM before the prompt ({@code langchain-rag.mjs} does all three; the others ignore them); and
     * how the answer is synthesised from the passages ("refine": LangChain's refine chain in {@code langchain-rag.mjs},
     * LlamaIndex's response mode in {@code llamaindex-rag.mjs}; null: the client's own prompt, LlamaIndex's default).
     */
    record Plan(List<Document> passages, Map<String, Question> questions, Map<String, String> faults,
            Integer contextBudget, Set<String> streamed, boolean gated, boolean compressed, String responseMode) {

        Plan(List<Document> passages, Map<String, Question> questions, Map<String, String> faults,
                Integer contextBudget, Set<String> streamed) {
            this(passages, questions, faults, contextBudget, streamed, false, false, null);
        }

        /**
         * The first {@code passages} paragraphs of the {@code test} split's articles, and {@code questions} answerable
         * questions about them, each with the next of {@link #EMBED_FAULTS}, every other one's answer streamed (a
         * chat UI streams what an API route asks whole).
         */
        static Plan of(int passageCount, int questionCount) {
            Corpus corpus = CorpusModel.shipped().corpus();
            Set<String> articles = new LinkedHashSet<>(ArticleSplits.articles(ArticleSplits.TEST));
            List<Document> passages = new ArrayList<>();
            for (Document d : corpus.documents()) {
                if (passages.size() < passageCount && articles.contains(ArticleSplits.articleOf(d.docId()))) {
                    passages.add(d);
                }
            }
            Set<String> held = new HashSet<>();
            passages.forEach(d -> held.add(d.docId()));
            Map<String, Question> questions = new LinkedHashMap<>();
            Map<String, String> faults = new HashMap<>();
            Set<String> streamed = new HashSet<>();
            Set<String> asked = new HashSet<>();
            for (Question q : ArticleSplits.questionsOf(corpus, articles)) {
                if (questions.size() == questionCount) {
                    break;
                }
                if (q.answerable() && held.contains(q.relevantDocIds().get(0)) && asked.add(q.question())) {
                    faults.put(q.questionId(), EMBED_FAULTS.get(questions.size() % EMBED_FAULTS.size()));
                    if (questions.size() % 2 == 1) {
                        streamed.add(q.questionId());
                    }
                    questions.put(q.questionId(), q);
                }
            }
            assertThat(questions).hasSize(questionCount);
            return new Plan(passages, questions, faults, null, streamed);
        }

        /** The same questions, each embedded as it is, each prompt's context cut at {@code chars} characters. */
        Plan withContextBudget(int chars) {
            Map<String, String> none = new HashMap<>();
            questions.keySet().forEach(id -> none.put(id, "none"));
            return new Plan(passages, questions, none, chars, streamed, gated, compressed, responseMode);
        }

        /**
         * The same questions, each asked through a relevance gate first ({@code langchain-rag.mjs}): the client answers
         * only when the chat model says its context suffices.
         */
        Plan withRelevanceGate() {
            return new Plan(passages, questions, faults, contextBudget, streamed, true, compressed, responseMode);
        }

        /**
         * The same questions, each reranked passage compressed by LangChain's {@code LLMChainExtractor} before the
         * prompt ({@code langchain-rag.mjs}): one chat call per passage, its extract in the prompt.
         */
        Plan withContextualCompression() {
            return new Plan(passages, questions, faults, contextBudget, streamed, gated, true, responseMode);
        }

        /**
         * The same questions, their answers synthesised in {@code mode}: "refine" answers from the first passage and
         * refines that answer with each next one, a chat call per passage (LangChain's refine chain, LlamaIndex's
         * response mode); "agent" has the chat model call a search tool with a query it writes and answer from the
         * tool's result ({@code langchain-rag.mjs}).
         */
        Plan withResponseMode(String mode) {
            return new Plan(passages, questions, faults, contextBudget, streamed, gated, compressed, mode);
        }

        /** The question asked in these words (a run and a verdict carry the words, not the id). */
        Question questionOf(String question) {
            return questions.values().stream().filter(q -> q.question().equals(question)).findFirst().orElseThrow();
        }

        String faultOf(String question) {
            return faults.get(questionOf(question).questionId());
        }

        JsonNode json() {
            ObjectNode plan = Json.MAPPER.createObjectNode()
                    .put("concurrency", Integer.getInteger("js.concurrency", 4));
            if (responseMode != null) {
                plan.put("responseMode", responseMode);
            }
            ArrayNode p = plan.putArray("passages");
            passages.forEach(d -> p.addObject().put("id", d.docId()).put("text", d.text()));
            ArrayNode q = plan.putArray("questions");
            questions.values().forEach(x -> {
                ObjectNode question = q.addObject().put("id", x.questionId()).put("question", x.question())
                        .put("embedFault", faults.get(x.questionId()));
                if (contextBudget != null) {
                    question.put("contextBudget", contextBudget);
                }
                if (streamed.contains(x.questionId())) {
                    question.put("stream", true);
                }
                if (gated) {
                    question.put("gate", true);
                }
                if (compressed) {
                    question.put("compress", true);
                }
            });
            return plan;
        }
    }

    /**
     * What the client printed per question (id, embedded text, answer), the calls the proxy recorded, how many calls
     * the stand-ins served, and how many of the recorded replies were streams of server-sent events.
     */
    record Recording(List<JsonNode> answered, Path calls, int served, long streamedReplies) {}

    /**
     * Runs {@code script} on the plan with the proxy's base URLs, no run header; the proxy is closed (drained) before
     * this returns, so every call the stand-ins served is in {@code calls}.
     */
    static Recording record(String script, String pipeline, Plan plan, Path dir) throws Exception {
        Path planFile = planFile(plan, dir);
        // kept in the build directory, for `./raglog replay --calls` by hand when a test fails
        Path calls = INSTALLED.resolve(pipeline + ".calls.jsonl");
        Files.deleteIfExists(calls);
        String out;
        int served;
        try (StandInApis apis = standIns()) {
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/openai", apis.baseUri().toString()))
                    .route(Route.prefix("/cohere", apis.baseUri().toString()))
                    .defaultPipeline(pipeline)
                    .sink(SinkSpec.file(calls))
                    .build())) {
                String base = proxy.baseUri().toString().replaceAll("/$", "");
                out = run(INSTALLED, Map.of(
                        "OPENAI_BASE_URL", base + "/openai/v1",
                        "OPENAI_API_KEY", OPENAI_KEY,
                        "COHERE_BASE_URL", base + "/cohere",
                        "COHERE_API_KEY", COHERE_KEY),
                        Duration.ofMinutes(2), "node", script, planFile.toAbsolutePath().toString());
            }
            served = apis.requests();
        }
        String recorded = Files.readString(calls, StandardCharsets.UTF_8);
        assertThat(recorded.lines().count()).as("calls recorded of the %d served", served).isEqualTo(served);
        assertThat(recorded).as("keys in the recording").doesNotContain("sk-proj-standin")
                .doesNotContain("standin-cohere-key");
        long streamedReplies = recorded.lines().map(l -> Json.read(l, JsonNode.class))
                .filter(call -> call.path("response").path("headers").path("content-type").asText()
                        .startsWith("text/event-stream"))
                .count();
        return new Recording(out.lines().map(l -> Json.read(l, JsonNode.class)).toList(), calls, served,
                streamedReplies);
    }

    /**
     * What the client printed per question, the OTLP/JSON export requests its tracer sent (one a line) and the spans
     * they held, and how many calls the stand-ins served.
     */
    record Traced(List<JsonNode> answered, Path traces, int spans, int served) {}

    /**
     * Runs {@code script} on the plan against the stand-ins directly (no proxy in the path) with its OpenTelemetry
     * exporter pointed at a local OTLP/HTTP receiver, which keeps each export request's JSON body as one line: what a
     * Collector's Kafka exporter would put on raglog's OTLP topic.
     */
    static Traced traced(String script, Plan plan, Path dir) throws Exception {
        Path planFile = planFile(plan, dir);
        // kept in the build directory, for `./raglog replay --otlp` by hand when a test fails
        Path traces = INSTALLED.resolve(script.replaceAll("\\.[a-z]+$", "") + ".otlp.jsonl");
        Files.deleteIfExists(traces);
        String out;
        int served;
        try (StandInApis apis = standIns(); OtlpReceiver receiver = OtlpReceiver.start(traces)) {
            String base = apis.baseUri().toString();
            out = run(INSTALLED, Map.of(
                    "OPENAI_BASE_URL", base + "/v1",
                    "OPENAI_API_KEY", OPENAI_KEY,
                    "COHERE_BASE_URL", base,
                    "COHERE_API_KEY", COHERE_KEY,
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver.tracesUri().toString()),
                    Duration.ofMinutes(2), "node", script, planFile.toAbsolutePath().toString());
            served = apis.requests();
        }
        String exported = Files.readString(traces, StandardCharsets.UTF_8);
        assertThat(exported).as("keys in the traces").doesNotContain("sk-proj-standin")
                .doesNotContain("standin-cohere-key");
        int spans = 0;
        for (String line : exported.lines().toList()) {
            for (JsonNode resource : Json.read(line, JsonNode.class).path("resourceSpans")) {
                for (JsonNode scope : resource.path("scopeSpans")) {
                    spans += scope.path("spans").size();
                }
            }
        }
        return new Traced(out.lines().map(l -> Json.read(l, JsonNode.class)).toList(), traces, spans, served);
    }

    private static Path planFile(Plan plan, Path dir) throws IOException {
        Path file = dir.resolve("plan.json");
        Files.write(file, Json.MAPPER.writeValueAsBytes(plan.json()));
        return file;
    }

    /** The paid APIs stood in, their embeddings the simulator's over the shipped corpus's statistics. */
    private static StandInApis standIns() throws IOException {
        return StandInApis.start(new HashedEmbedder(CorpusModel.shipped().stats(), HashedEmbedder.DEFAULT_DIMENSIONS));
    }

    /**
     * The recording replayed through the job's topology: its summary, its runs by question, its verdicts, and each
     * run's features and findings by run id.
     */
    record Replayed(ReplayCommand.Summary summary, Map<String, Run> runs, List<Verdict> verdicts,
            Map<String, RunFeatures> features) {}

    static Replayed replay(Path calls, Path dir) throws Exception {
        return replay(List.of(calls), List.of(), dir);
    }

    static Replayed replayTraces(Path traces, Path dir) throws Exception {
        return replay(List.of(), List.of(traces), dir);
    }

    private static Replayed replay(List<Path> calls, List<Path> traces, Path dir) throws Exception {
        Path runsFile = dir.resolve("runs.jsonl");
        Path verdictsFile = dir.resolve("verdicts.jsonl");
        Path featuresFile = dir.resolve("features.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(calls, traces,
                new ReplayCommand.Outputs(runsFile, dir.resolve("dlq.jsonl"), featuresFile, verdictsFile,
                        JobSettings.defaults()),
                2, TopologySettings.DEFAULTS);
        Map<String, Run> runs = new HashMap<>();
        for (String line : Files.readAllLines(runsFile)) {
            Run run = Json.read(line, Run.class);
            assertThat(runs.put(run.question(), run)).as("one run per question: %s", run.question()).isNull();
        }
        List<Verdict> verdicts = Files.readAllLines(verdictsFile).stream().map(l -> Json.read(l, Verdict.class))
                .toList();
        Map<String, RunFeatures> features = new HashMap<>();
        for (String line : Files.readAllLines(featuresFile)) {
            RunFeatures f = Json.read(line, RunFeatures.class);
            features.put(f.runId(), f);
        }
        return new Replayed(summary, runs, verdicts, features);
    }

    private static boolean onPath(String command) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, command))) {
                return true;
            }
        }
        return false;
    }

    /** Runs a command in a folder; its standard output, or a failure with its standard error. */
    private static String run(Path folder, Map<String, String> env, Duration timeout, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
        builder.environment().putAll(env);
        Path out = Files.createTempFile("js-client", ".out");
        Path err = Files.createTempFile("js-client", ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + process.exitValue() + ":\n"
                        + Files.readString(err));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }
}

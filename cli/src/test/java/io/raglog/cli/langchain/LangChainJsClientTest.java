package io.raglog.cli.langchain;

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
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.CorpusModel;
import io.raglog.simulator.corpus.Document;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.HashedEmbedder;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real LangChain.js client (OpenAI embeddings, LangChain's in-memory vector store, Cohere rerank, OpenAI chat; the
 * npm packages teams install, {@code src/test/langchain-js}) answers questions a few at a time through raglog's
 * logging proxy, with no run header; raglog replays what the proxy recorded. The paid APIs are stood in
 * ({@link StandInApis}); the client's wire shapes, its batching and its in-process store are the library's own.
 *
 * <p>This is the traffic a real client's recordings showed raglog getting wrong: with no retrieval call to carry the
 * query vector, a query embedded with a typo, cut at a budget, behind an instruction prefix or from the wrong field
 * no longer equals the rewrite, and the embedding call fell out of its run. Every question must come out as one whole
 * run, its embedding call in it, and the index-building call as no run at all; then the shipped bundle must flag the
 * embedding stage of each run whose query the client got wrong, and of no other (a BGE-style instruction before the
 * query included: it is how such models are queried).
 */
class LangChainJsClientTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    /** How the client gets each question's query embedding wrong (or, for {@code prefix}, merely different). */
    private static final List<String> EMBED_FAULTS = List.of("none", "prefix", "truncate", "typo", "history");
    private static final Set<String> HEALTHY = Set.of("none", "prefix");
    private static final int QUESTIONS = 20;
    private static final int PASSAGES = 40;
    private static final String PIPELINE = "helpdesk-langchain-js";
    private static final Path CLIENT = Path.of("target", "langchain-js");

    @TempDir
    Path dir;

    /**
     * The client's packages, installed from the lock file into the build directory by {@code npm ci}; Node.js and npm
     * first, by the project's {@code scripts/install-test-packages.sh}, when the machine lacks them.
     */
    @BeforeAll
    static void installClient() throws Exception {
        if (!onPath("node") || !onPath("npm")) {
            Path script = Path.of("..", "scripts", "install-test-packages.sh").toAbsolutePath().normalize();
            run(script.getParent(), Map.of(), Duration.ofMinutes(10), script.toString());
        }
        assertThat(onPath("node") && onPath("npm")).as("Node.js and npm (scripts/install-test-packages.sh)").isTrue();
        Path sources = Path.of("src", "test", "langchain-js");
        Files.createDirectories(CLIENT);
        for (String file : List.of("package.json", "package-lock.json", "rag.mjs")) {
            Files.copy(sources.resolve(file), CLIENT.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        run(CLIENT, Map.of(), Duration.ofMinutes(5), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
    }

    @Test
    void shouldAssembleEveryQuestionOfAnUnhintedInMemoryStoreClientIntoOneWholeRun() throws Exception {
        Corpus corpus = CorpusModel.shipped().corpus();
        Plan plan = plan(corpus);
        Path planFile = dir.resolve("plan.json");
        Files.write(planFile, Json.MAPPER.writeValueAsBytes(plan.json()));
        // kept in the build directory, for `./raglog replay --calls` by hand when the test fails
        Path calls = CLIENT.resolve("calls.jsonl");
        Files.deleteIfExists(calls);
        List<JsonNode> answered;
        try (StandInApis apis = StandInApis.start(new HashedEmbedder(CorpusModel.shipped().stats(),
                HashedEmbedder.DEFAULT_DIMENSIONS));
                LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                        .listenOnEphemeralPort()
                        .route(Route.prefix("/openai", apis.baseUri().toString()))
                        .route(Route.prefix("/cohere", apis.baseUri().toString()))
                        .defaultPipeline(PIPELINE)
                        .sink(SinkSpec.file(calls))
                        .build())) {
            String base = proxy.baseUri().toString().replaceAll("/$", "");
            String out = run(CLIENT, Map.of(
                    "OPENAI_BASE_URL", base + "/openai/v1",
                    "OPENAI_API_KEY", "sk-proj-standin0000000000000000000000000000",
                    "COHERE_BASE_URL", base + "/cohere",
                    "COHERE_API_KEY", "standin-cohere-key-000000000000000000000"),
                    Duration.ofMinutes(2), "node", "rag.mjs", planFile.toAbsolutePath().toString());
            answered = out.lines().map(l -> Json.read(l, JsonNode.class)).toList();
            // the index's documents in one batch, then rewrite, embedding, rerank and answer per question
            awaitLines(calls, 1 + 4 * QUESTIONS);
        }
        assertThat(answered).hasSize(QUESTIONS);

        Path runsFile = dir.resolve("runs.jsonl");
        Path verdictsFile = dir.resolve("verdicts.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(calls), List.of(),
                new ReplayCommand.Outputs(runsFile, dir.resolve("dlq.jsonl"), null, verdictsFile,
                        JobSettings.defaults()),
                2, TopologySettings.DEFAULTS);

        assertThat(summary.deadLetterCount()).isZero();
        assertThat(summary.incompleteCount()).as("calls no run claimed").isZero();
        assertThat(summary.runCount()).isEqualTo(QUESTIONS);
        Map<String, Run> runs = new HashMap<>();
        for (String line : Files.readAllLines(runsFile)) {
            Run run = Json.read(line, Run.class);
            assertThat(runs.put(run.question(), run)).as("one run per question: %s", run.question()).isNull();
        }
        for (JsonNode a : answered) {
            Question question = plan.questions.get(a.path("id").asText());
            String fault = plan.faults.get(question.questionId());
            Run run = runs.get(question.question());
            assertThat(run).as("the run of %s (%s)", question.question(), fault).isNotNull();
            for (Stage stage : List.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE, Stage.RERANK, Stage.GENERATE)) {
                assertThat(run.has(stage)).as("%s of %s (%s)", stage.id(), question.question(), fault).isTrue();
            }
            // LangChain's OpenAIEmbeddings sends a text's new lines as spaces (its stripNewLines)
            assertThat(run.stages().embed().texts()).as("the embedded query of %s", question.question())
                    .containsExactly(a.path("embedded").asText().replace('\n', ' '));
            assertThat(run.stages().retrieve().reconstructed()).isTrue();
            assertThat(run.stages().generate().answer()).isEqualTo(a.path("answer").asText());
        }
        assertThat(Files.readString(calls, StandardCharsets.UTF_8)).doesNotContain("sk-proj-standin")
                .doesNotContain("standin-cohere-key");

        // each planted fault is found on the embedding stage, and a model's instruction before the query is no fault
        List<Verdict> verdicts = Files.readAllLines(verdictsFile).stream().map(l -> Json.read(l, Verdict.class))
                .toList();
        assertThat(verdicts).hasSize(QUESTIONS);
        for (Verdict v : verdicts) {
            String fault = plan.faults.get(idOf(plan, v.question()));
            boolean faulty = !HEALTHY.contains(fault);
            assertThat(v.flaggedStages().contains(Stage.EMBED))
                    .as("embedding flagged for %s (%s): %s", v.question(), fault, v.stages().embed().evidence())
                    .isEqualTo(faulty);
        }
    }

    private static String idOf(Plan plan, String question) {
        return plan.questions.values().stream().filter(q -> q.question().equals(question)).findFirst().orElseThrow()
                .questionId();
    }

    /**
     * The knowledge base: the first {@link #PASSAGES} paragraphs of the {@code test} split's articles; the questions:
     * answerable ones about those paragraphs, one in each embedding fault in turn.
     */
    private static Plan plan(Corpus corpus) {
        Set<String> articles = new LinkedHashSet<>(ArticleSplits.articles(ArticleSplits.TEST));
        List<Document> passages = new ArrayList<>();
        for (Document d : corpus.documents()) {
            if (passages.size() < PASSAGES && articles.contains(ArticleSplits.articleOf(d.docId()))) {
                passages.add(d);
            }
        }
        Set<String> held = new LinkedHashSet<>();
        passages.forEach(d -> held.add(d.docId()));
        Map<String, Question> questions = new LinkedHashMap<>();
        Map<String, String> faults = new HashMap<>();
        Set<String> asked = new HashSet<>();
        for (Question q : ArticleSplits.questionsOf(corpus, articles)) {
            if (questions.size() == QUESTIONS) {
                break;
            }
            if (q.answerable() && held.contains(q.relevantDocIds().get(0)) && asked.add(q.question())) {
                faults.put(q.questionId(), EMBED_FAULTS.get(questions.size() % EMBED_FAULTS.size()));
                questions.put(q.questionId(), q);
            }
        }
        assertThat(questions).hasSize(QUESTIONS);
        return new Plan(passages, questions, faults);
    }

    private record Plan(List<Document> passages, Map<String, Question> questions, Map<String, String> faults) {
        JsonNode json() {
            ObjectNode plan = Json.MAPPER.createObjectNode().put("concurrency", 4);
            ArrayNode p = plan.putArray("passages");
            passages.forEach(d -> p.addObject().put("id", d.docId()).put("text", d.text()));
            ArrayNode q = plan.putArray("questions");
            questions.values().forEach(x -> q.addObject().put("id", x.questionId()).put("question", x.question())
                    .put("embedFault", faults.get(x.questionId())));
            return plan;
        }
    }

    private static void awaitLines(Path file, int lines) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            int seen = Files.exists(file) ? Files.readAllLines(file).size() : 0;
            if (seen >= lines) {
                assertThat(seen).as("calls recorded").isEqualTo(lines);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the proxy recorded " + seen + " calls of " + lines);
            }
            Thread.sleep(50);
        }
    }

    private static boolean onPath(String command) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, command))) {
                return true;
            }
        }
        return false;
    }

    /** Runs a command in a folder; its standard output, or a failure with both of its outputs. */
    private static String run(Path folder, Map<String, String> env, Duration timeout, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
        builder.environment().putAll(env);
        Path err = Files.createTempFile("langchain-js", ".err");
        builder.redirectError(err.toFile());
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout);
        }
        String stderr = Files.readString(err);
        Files.delete(err);
        if (process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + process.exitValue() + ":\n" + stderr);
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}

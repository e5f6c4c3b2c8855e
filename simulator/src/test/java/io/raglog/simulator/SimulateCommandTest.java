package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Label;
import io.raglog.simulator.output.FileSink;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line, end to end on a team's own JSONL corpus. */
class SimulateCommandTest {

    static final String TINY = "src/test/resources/corpus/tiny";

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new SimulateCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void shouldSimulateEveryProfileOverAJsonlCorpus() throws Exception {
        int code = run("--profile", "all", "--runs", "120", "--seed", "3", "--fault-rate", "0.5",
                "--corpus", TINY, "--out", dir.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(dir.resolve(FileSink.CALLS)).isNotEmptyFile();
        assertThat(dir.resolve(FileSink.TRACES)).isNotEmptyFile();
        assertThat(dir.resolve(FileSink.SUMMARY)).isNotEmptyFile();
        SimulatedLogs logs = SimulatedLogs.simulate(
                SimulatorOptions.of("all", 120, 3).withFaultRate(0.5).withCorpus(Path.of(TINY)), dir.resolve("again"));
        assertThat(Files.readAllLines(dir.resolve(FileSink.LABELS)))
                .isEqualTo(Files.readAllLines(dir.resolve("again").resolve(FileSink.LABELS)));
        Set<String> questionIds = logs.labels.stream().map(Label::questionId).collect(Collectors.toSet());
        assertThat(questionIds).allSatisfy(id -> assertThat(id).matches("q\\d+"));
        assertThat(logs.labels).extracting(Label::profile).containsOnly("openai-qdrant-cohere",
                "tei-pinecone-anthropic", "ollama-jina-vllm", "elastic-voyage-responses", "otel-llamaindex",
                "langchain-memory");
        assertThat(out.toString()).contains("120 runs").contains("faulty but answered correctly");
    }

    @Test
    void shouldAskOnlyTheChosenSplitsQuestions() throws Exception {
        int code = run("--profile", "tei-pinecone-anthropic", "--runs", "40", "--split", "lockbox", "--index-every",
                "0", "--out", dir.toString());
        assertThat(code).as(err.toString()).isZero();
        java.util.List<Label> labels = Files.readAllLines(dir.resolve(FileSink.LABELS)).stream()
                .map(line -> io.raglog.schemas.Json.read(line, Label.class)).toList();
        Set<String> lockbox = Set.copyOf(io.raglog.simulator.corpus.ArticleSplits.articles("lockbox"));
        var squad = io.raglog.simulator.corpus.CorpusLoader.loadShipped();
        var articleOf = squad.questions().stream().collect(Collectors.toMap(q -> q.questionId(),
                q -> io.raglog.simulator.corpus.ArticleSplits.articleOf(q.relevantDocIds().get(0))));
        assertThat(labels).hasSize(40).allSatisfy(l -> assertThat(articleOf.get(l.questionId())).isIn(lockbox));
        assertThat(out.toString()).contains("questions from split lockbox").contains("none repeated");
        assertThat(run("--runs", "5", "--split", "test", "--articles", "Normans", "--out", dir.toString()))
                .as("--split and --articles exclude each other").isNotZero();
    }

    @Test
    void shouldWriteNoTraceFileWhenNoProfileEmitsTraces() {
        int code = run("--profile", "tei-pinecone-anthropic,ollama-jina-vllm", "--runs", "20", "--corpus", TINY,
                "--out", dir.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(dir.resolve(FileSink.TRACES)).doesNotExist();
        assertThat(dir.resolve(FileSink.LABELS)).isNotEmptyFile();
    }

    @Test
    void shouldRejectAnUnknownProfileByNamingTheKnownOnes() {
        int code = run("--profile", "langflow", "--runs", "5", "--corpus", TINY, "--out", dir.toString());
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("unknown profile \"langflow\"").contains("openai-qdrant-cohere");
    }

    @Test
    void shouldRequireExactlyOneDestination() {
        assertThat(run("--runs", "5")).isNotZero();
        assertThat(err.toString()).contains("--out").contains("--kafka");
        assertThat(run("--runs", "5", "--out", dir.toString(), "--kafka", "localhost:9092")).isNotZero();
    }
}

package io.raglog.simulator;

import io.raglog.simulator.output.FileSink;
import io.raglog.simulator.output.KafkaSink;
import io.raglog.simulator.output.SimulationSink;
import io.raglog.simulator.profile.Profiles;
import io.raglog.simulator.session.SessionPlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code raglog simulate}: RAG pipelines answering questions over a corpus, with labeled faults; writes the calls,
 * traces and labels to a directory or produces them to Kafka.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Simulate RAG pipelines (real vendor API shapes) answering questions over a corpus, with labeled"
                + " per-stage faults.",
            "Writes calls.jsonl (CallEvent v1), traces.otlp.jsonl (OTLP/JSON, when a profile emits traces),"
                + " labels.jsonl and summary.json to --out, or produces to Kafka."})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--profile", defaultValue = Profiles.ALL, paramLabel = "NAME|all",
            description = "Profile(s) to run, comma-separated, or all (default: the training profiles; held-out"
                    + " unseen-* profiles only by name). Known: ${COMPLETION-CANDIDATES}",
            completionCandidates = ProfileNames.class)
    String profile;

    @Option(names = "--runs", defaultValue = "1000", paramLabel = "N", description = "Runs (questions) to simulate.")
    int runs;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed: same seed, same output.")
    long seed;

    @Option(names = "--fault-rate", defaultValue = "0.3", paramLabel = "R",
            description = "Share of runs with one injected fault (default ${DEFAULT-VALUE}).")
    double faultRate;

    @Option(names = "--corpus", paramLabel = "DIR",
            description = "A JSONL corpus directory (documents.jsonl + questions.jsonl) or a SQuAD 2.0 file;"
                    + " default: the SQuAD 2.0 dev articles raglog ships.")
    Path corpus;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Destination destination;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Questions questions;

    /** Which questions are asked; the knowledge base every question is asked of is always the whole corpus. */
    static final class Questions {
        @Option(names = "--split", paramLabel = "NAME",
                description = "Ask only the questions of this fixed article split of the SQuAD file: train, test,"
                        + " unseen or lockbox (no article is in two). Default: every question.")
        String split;

        @Option(names = "--articles", paramLabel = "A,B", split = ",",
                description = "Ask only the questions of these articles (SQuAD titles, e.g. Steam_engine).")
        java.util.List<String> articles;
    }

    static final class Destination {
        @Option(names = "--out", paramLabel = "DIR", description = "Directory to write the files to.")
        Path out;

        @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "Kafka bootstrap servers to produce to.")
        String kafka;
    }

    @Option(names = "--rate", paramLabel = "RUNS_PER_S",
            description = "Steady wall-clock rate, for benchmarks; questions then also arrive at this rate.")
    Double rate;

    @Option(names = "--start", paramLabel = "INSTANT",
            description = "Simulated time of the first question (RFC 3339); default 2026-01-01T00:00:00Z.")
    Instant start;

    @Option(names = "--index-every", defaultValue = "50", paramLabel = "N",
            description = "Mix in one index-building batch every N runs of a profile; 0 for none.")
    int indexEvery;

    @Option(names = "--switch-embedding-model", paramLabel = "PIPELINE:RUNS:MODEL",
            description = "Plant a query embedding model switch: after RUNS runs of PIPELINE its questions are embedded "
                    + "with MODEL while its index keeps the old model (support-assistant, search-answers or "
                    + "helpdesk-langchain). The runs after the switch are labeled embed.model_mismatch.")
    String switchEmbeddingModel;

    @Option(names = "--index-embedding-model", paramLabel = "PIPELINE:MODEL",
            description = "Plant an index built with another model: PIPELINE's index-building calls name MODEL while "
                    + "its questions keep the profile's model; every run of it is labeled embed.model_mismatch.")
    String indexEmbeddingModel;

    @Option(names = "--sessions", description = {"Users in sessions: several questions each, some re-asked in other "
            + "words after a wrong or refused answer, some on the same article; the calls carry x-session-id (spans "
            + "session.id), except from docs-qa, helpdesk-langchain and some users; labels (v4) say which run "
            + "re-asks which."})
    boolean sessions;

    @Option(names = "--calls-topic", defaultValue = "raglog.calls", paramLabel = "TOPIC")
    String callsTopic;

    @Option(names = "--otlp-topic", defaultValue = "raglog.otlp", paramLabel = "TOPIC")
    String otlpTopic;

    @Option(names = "--labels-topic", defaultValue = "raglog.labels", paramLabel = "TOPIC")
    String labelsTopic;

    static final class ProfileNames extends java.util.ArrayList<String> {
        ProfileNames() {
            super(Profiles.names());
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulateCommand()).execute(args));
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SimulatorOptions options = SimulatorOptions.of(profile, runs, seed).withFaultRate(faultRate)
                .withCorpus(corpus).withIndexEvery(indexEvery);
        if (questions != null) {
            options = questions.split != null ? options.withSplit(questions.split)
                    : options.withArticles(questions.articles);
        }
        if (switchEmbeddingModel != null || indexEmbeddingModel != null) {
            EmbeddingPlan plan = switchEmbeddingModel != null ? EmbeddingPlan.switchAt(switchEmbeddingModel)
                    : EmbeddingPlan.none();
            options = options.withEmbeddingPlan(indexEmbeddingModel != null ? plan.withIndex(indexEmbeddingModel)
                    : plan);
        }
        if (start != null) {
            options = options.withClockStart(start);
        }
        if (sessions) {
            options = options.withSessions(SessionPlan.typical());
        }
        if (rate != null) {
            options = options.withPace(rate);
        }
        long t0 = System.nanoTime();
        Simulator simulator = new Simulator(options);
        SimulationSummary summary;
        try (SimulationSink sink = destination.out != null ? new FileSink(destination.out)
                : KafkaSink.connect(destination.kafka, new KafkaSink.Topics(callsTopic, otlpTopic, labelsTopic))) {
            summary = simulator.run(sink, line -> {
                err.println(line);
                err.flush();
            });
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        out.println(summary.describe());
        out.printf(Locale.ROOT, "done in %.1f s (%.0f runs/s) -> %s%n", seconds, summary.runs() / seconds,
                destination.out != null ? destination.out.toAbsolutePath() : "kafka " + destination.kafka);
        out.flush();
        return 0;
    }
}

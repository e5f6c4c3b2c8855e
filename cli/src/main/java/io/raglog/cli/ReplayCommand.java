package io.raglog.cli;

import io.raglog.cli.io.FileInputs;
import io.raglog.cli.io.JsonLinesFileSink;
import io.raglog.job.JobSettings;
import io.raglog.job.RaglogConfig;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.TopologySettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.otel.EvaluationEvents;
import io.raglog.otel.OtlpJson;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Verdict;
import io.raglog.score.flink.BundleLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The same topology over files, in batch mode: how a user debugs a day of logs offline, and how we check real
 * traffic. Batch mode sorts each key's calls before assembly and fires every timer at the end of the input, so the
 * result does not depend on the order of lines in the files.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Assemble runs from captured calls in files (batch mode), one Run per line out.")
public final class ReplayCommand implements Callable<Integer> {

    @Option(names = "--calls", arity = "1..*", paramLabel = "FILE",
            description = "CallEvent JSONL files (raglog.call/v1, one per line).")
    List<Path> calls = new ArrayList<>();

    @Option(names = "--otlp", arity = "1..*", paramLabel = "FILE",
            description = "OTLP/JSON files: one ExportTraceServiceRequest per line.")
    List<Path> otlp = new ArrayList<>();

    @Option(names = "--runs-out", paramLabel = "FILE", description = "Where to write runs (JSONL).")
    Path runsOut;

    @Option(names = "--dlq-out", paramLabel = "FILE",
            description = "Where to write dead letters (JSONL). Default: beside the first output asked for,"
                    + " <runs-out|features-out|verdicts-out|evaluations-out>.dlq.jsonl")
    Path dlqOut;

    @Option(names = "--features-out", paramLabel = "FILE",
            description = "Also run the checks and write each run's feature vector (raglog.features/v1 JSONL). "
                    + "The LLM judge comes from RAGLOG_LLM_* (default: the offline judge).")
    Path featuresOut;

    @Option(names = "--verdicts-out", paramLabel = "FILE",
            description = "Also check and score every run and write its verdict (raglog.verdict/v1 JSONL).")
    Path verdictsOut;

    @Option(names = "--evaluations-out", paramLabel = "FILE",
            description = "Also check and score every run and write its verdict as OpenTelemetry GenAI evaluation "
                    + "events: OTLP/JSON, one ExportLogsServiceRequest per line, a gen_ai.evaluation.result log "
                    + "record per present stage, on the stage's span when the input was OTLP.")
    Path evaluationsOut;

    @Option(names = "--bundle", paramLabel = "DIR",
            description = "Model bundle for --verdicts-out and --evaluations-out (default: the bundle raglog ships).")
    Path bundle;

    @Option(names = "--config", paramLabel = "FILE",
            description = "raglog.yaml whose checks, LLM, mapping, assembly and bundle settings the replay uses "
                    + "(environment variables override it, as for run); every run is checked, and runs close on "
                    + "event time alone.")
    Path config;

    @Option(names = "--parallelism", defaultValue = "2", description = "Flink parallelism (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Override
    public Integer call() throws Exception {
        if (calls.isEmpty() && otlp.isEmpty()) {
            System.err.println("replay needs at least one --calls or --otlp file");
            return 2;
        }
        for (Path f : concat(calls, otlp)) {
            if (!Files.isReadable(f)) {
                System.err.println("cannot read " + f);
                return 2;
            }
        }
        Path first = runsOut != null ? runsOut : featuresOut != null ? featuresOut
                : verdictsOut != null ? verdictsOut : evaluationsOut;
        if (first == null) {
            System.err.println("replay needs at least one output: --runs-out, --features-out, --verdicts-out or "
                    + "--evaluations-out");
            return 2;
        }
        Path dlq = dlqOut != null ? dlqOut : Path.of(first + ".dlq.jsonl");
        JobSettings scoring = RaglogConfig.load(config, System.getenv()).jobSettings();
        if (bundle != null) {
            scoring = scoring.withBundle(BundleLocation.directory(bundle));
        }
        Outputs outputs = new Outputs(runsOut, dlq, featuresOut, verdictsOut, evaluationsOut, scoring);
        Summary summary = replay(calls, otlp, outputs, parallelism, scoring.topology());
        summary.print(System.out);
        return 0;
    }

    /**
     * Where a replay writes: only the outputs asked for (dead letters always, since nothing may be dropped silently).
     *
     * @param runs null to skip writing runs (then features or verdicts must be asked for)
     * @param features null to skip writing feature vectors
     * @param verdicts null to skip writing verdicts
     * @param evaluations null to skip writing the verdicts as OTLP/JSON evaluation events; with none of features,
     *     verdicts and evaluations, runs are not checked at all
     * @param scoring how to check and score runs (judge, bundle); every run is checked in a replay
     */
    public record Outputs(Path runs, Path deadLetters, Path features, Path verdicts, Path evaluations,
            JobSettings scoring) {
        public Outputs {
            if (runs == null && features == null && verdicts == null && evaluations == null) {
                throw new IllegalArgumentException("a replay writes at least runs, features, verdicts or evaluations");
            }
        }

        /** Outputs without evaluation events. */
        public Outputs(Path runs, Path deadLetters, Path features, Path verdicts, JobSettings scoring) {
            this(runs, deadLetters, features, verdicts, null, scoring);
        }

        public static Outputs runsOnly(Path runs, Path deadLetters) {
            return new Outputs(runs, deadLetters, null, null, null, null);
        }

        boolean checks() {
            return features != null || verdicts != null || evaluations != null;
        }

        /** Each output asked for to its file, by one writer. */
        RaglogPipeline.Sinks files() {
            return new RaglogPipeline.Sinks() {
                @Override
                public boolean wantsVerdicts() {
                    return checks();
                }

                @Override
                public void runs(DataStream<Run> stream) {
                    if (runs != null) {
                        JsonLinesFileSink.attach(stream, runs, "runs file");
                    }
                }

                @Override
                public void deadLetters(DataStream<DeadLetter> stream) {
                    JsonLinesFileSink.attach(stream, deadLetters, "dead letters file");
                }

                @Override
                public void features(DataStream<RunFeatures> stream) {
                    if (features != null) {
                        JsonLinesFileSink.attach(stream, features, "features file");
                    }
                }

                @Override
                public void verdicts(DataStream<Verdict> stream) {
                    if (verdicts != null) {
                        JsonLinesFileSink.attach(stream, verdicts, "verdicts file");
                    }
                }

                @Override
                public void evaluations(DataStream<Verdict> stream) {
                    if (evaluations != null) {
                        JsonLinesFileSink.attach(stream, evaluations, "evaluations file", ReplayCommand::otlpJson);
                    }
                }
            };
        }
    }

    /** A verdict's evaluation events as one line of OTLP/JSON. */
    static byte[] otlpJson(Verdict verdict) {
        return OtlpJson.write(EvaluationEvents.of(verdict)).getBytes(StandardCharsets.UTF_8);
    }

    /** What a replay wrote, counted from its output files. */
    public record Summary(Path runs, long runCount, long incompleteCount, Path deadLetters, long deadLetterCount,
            Path features, long featureCount, Path verdicts, long verdictCount, Path evaluations,
            long evaluationCount) {
        void print(PrintStream out) {
            if (runs != null) {
                out.printf("%d runs (%d incomplete) -> %s%n", runCount, incompleteCount, runs);
            }
            out.printf("%d dead letters -> %s%n", deadLetterCount, deadLetters);
            if (features != null) {
                out.printf("%d feature vectors -> %s%n", featureCount, features);
            }
            if (verdicts != null) {
                out.printf("%d verdicts -> %s%n", verdictCount, verdicts);
            }
            if (evaluations != null) {
                out.printf("%d verdicts as OTLP evaluation events -> %s%n", evaluationCount, evaluations);
            }
        }
    }

    public static Summary replay(List<Path> callFiles, List<Path> otlpFiles, Outputs outputs, int parallelism,
            TopologySettings given) throws Exception {
        // the whole input is there: runs close on event time alone, as the watermark ends the input (no prompt path)
        TopologySettings settings = given.withAssembly(given.assembly().eventTimeOnly());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(parallelism);

        JobSettings scoring = outputs.checks() ? outputs.scoring().withSampling(SamplingPolicy.CHECK_EVERYTHING)
                : JobSettings.defaults();
        JobSettings job = new JobSettings(settings, scoring.checks(), scoring.bundle(), scoring.sampling(),
                scoring.faultRateWindow());
        RaglogPipeline.wire(new RaglogPipeline.Sources(FileInputs.lines(env, callFiles, "calls"),
                FileInputs.lines(env, otlpFiles, "otlp")), outputs.files(), job);
        env.execute("raglog replay");

        long runs = 0;
        long incomplete = 0;
        if (outputs.runs() != null) {
            try (Stream<String> lines = Files.lines(outputs.runs())) {
                for (String line : (Iterable<String>) lines::iterator) {
                    runs++;
                    if (line.contains("\"incomplete\":true")) {
                        incomplete++;
                    }
                }
            }
        }
        return new Summary(outputs.runs(), runs, incomplete, outputs.deadLetters(), countLines(outputs.deadLetters()),
                outputs.features(), outputs.features() == null ? 0 : countLines(outputs.features()),
                outputs.verdicts(), outputs.verdicts() == null ? 0 : countLines(outputs.verdicts()),
                outputs.evaluations(), outputs.evaluations() == null ? 0 : countLines(outputs.evaluations()));
    }

    private static long countLines(Path file) throws IOException {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        }
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}

package io.raglog.cli;

import io.raglog.job.DefaultBundle;
import io.raglog.schemas.Json;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.training.EvaluationReport;
import io.raglog.training.Evaluator;
import io.raglog.training.LabeledRun;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Scores labeled runs with a bundle and reports the paper's measures beside two baselines. */
@Command(name = "evaluate", mixinStandardHelpOptions = true,
        description = {"Stage-level F1 pooled over every present stage of every run, per-stage P/R/F1, run-level",
            "false-positive rate, faulty-but-correct runs caught, against answer-only and rules-only baselines."})
public final class EvaluateCommand implements Callable<Integer> {

    @Mixin
    DatasetOptions data;

    @Option(names = "--bundle", paramLabel = "DIR", description = "Model bundle (default: the one raglog ships).")
    Path bundle;

    @Option(names = "--json-out", paramLabel = "FILE", description = "Also write the report as JSON.")
    Path jsonOut;

    @Option(names = "--dataset-name", defaultValue = "evaluation", description = "Name in the report.")
    String datasetName;

    @Option(names = "--verdicts-out", paramLabel = "FILE",
            description = "Also write each run's verdict (probabilities, thresholds, flags) as JSONL, to see which "
                    + "runs the figures miss.")
    Path verdictsOut;

    @Override
    public Integer call() throws Exception {
        LabeledDataset.Joined dataset = data.load();
        System.out.println(dataset.describe());
        try (ModelBundle model = bundle != null ? ModelBundle.load(bundle) : DefaultBundle.load()) {
            EvaluationReport report = Evaluator.evaluate(datasetName, new Scorer(model), dataset.runs());
            System.out.println(report.toTable());
            if (jsonOut != null) {
                Files.writeString(jsonOut, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            }
            if (verdictsOut != null) {
                writeVerdicts(new Scorer(model), dataset.runs());
            }
        }
        return 0;
    }

    private void writeVerdicts(Scorer scorer, List<LabeledRun> runs) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(verdictsOut)) {
            for (LabeledRun run : runs) {
                out.write(Json.MAPPER.writeValueAsString(scorer.score(run.input(), Instant.EPOCH)));
                out.newLine();
            }
        }
    }
}

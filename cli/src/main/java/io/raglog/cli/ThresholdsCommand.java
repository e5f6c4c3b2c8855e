package io.raglog.cli;

import io.raglog.job.DefaultBundle;
import io.raglog.score.ModelBundle;
import io.raglog.training.ThresholdSuggester;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Suggests per-stage thresholds from a team's own hand-labeled runs for a chosen false-positive rate. */
@Command(name = "thresholds", mixinStandardHelpOptions = true,
        description = "Suggest per-stage thresholds from hand-labeled runs, keeping the run-level false-positive "
                + "rate under --max-fpr; optionally write a bundle that uses them.")
public final class ThresholdsCommand implements Callable<Integer> {

    @Mixin
    DatasetOptions data;

    @Option(names = "--bundle", paramLabel = "DIR", description = "Model bundle (default: the one raglog ships).")
    Path bundle;

    @Option(names = "--max-fpr", defaultValue = "0.05",
            description = "Largest acceptable run-level false-positive rate (default: ${DEFAULT-VALUE}).")
    double maxFpr;

    @Option(names = "--out", paramLabel = "DIR", description = "Write a copy of the bundle with these thresholds.")
    Path out;

    @Option(names = "--pipeline", paramLabel = "NAME",
            description = "Suggest from this pipeline's runs only (default: every run read).")
    String pipeline;

    @Override
    public Integer call() throws Exception {
        LabeledDataset.Joined dataset = pipeline == null ? data.load() : data.load().ofPipeline(pipeline);
        System.out.println(dataset.describe() + (pipeline == null ? "" : ", of pipeline " + pipeline));
        try (ModelBundle model = bundle != null ? ModelBundle.load(bundle) : DefaultBundle.load()) {
            ThresholdSuggester.Suggestion suggestion = ThresholdSuggester.suggest(model, dataset.runs(), maxFpr);
            System.out.println(suggestion.toTable());
            if (out != null) {
                ModelBundle tuned = model.withThresholds(suggestion.thresholds(),
                        "hand-labeled runs, run-level FPR <= " + maxFpr);
                tuned.save(out);
                System.out.println("bundle " + tuned.id() + " -> " + out);
            }
        }
        return 0;
    }
}

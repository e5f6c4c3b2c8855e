package io.raglog.job;

import io.raglog.score.ModelBundle;
import io.raglog.score.Trainer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Trains the per-stage ensembles on labeled runs and writes a versioned model bundle. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Train per-stage classifiers on labeled runs; features come from the same code the job runs.",
            "Thresholds are chosen on a validation split; the bundle's evaluation report is on a held-out test split."})
public final class TrainCommand implements Callable<Integer> {

    @Mixin
    DatasetOptions data;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the bundle.")
    Path out;

    @Option(names = "--name", defaultValue = "raglog-default", description = "Bundle name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--max-run-fpr", defaultValue = "0.05",
            description = "Run-level false-positive budget for choosing thresholds (default: ${DEFAULT-VALUE}).")
    double maxRunFpr;

    @Override
    public Integer call() throws Exception {
        LabeledDataset.Joined dataset = data.load();
        System.out.println(dataset.describe());
        Trainer.Settings defaults = Trainer.Settings.defaults(name);
        Trainer.Settings settings = new Trainer.Settings(name, defaults.seed(), defaults.validationShare(),
                defaults.testShare(), maxRunFpr, defaults.minPerClass(), defaults.models());
        ModelBundle bundle = Trainer.train(dataset.runs(), settings, Instant.now());
        bundle.save(out);
        System.out.println("bundle " + bundle.id() + " -> " + out);
        System.out.println(bundle.evaluation().toTable());
        return 0;
    }
}

package io.raglog.cli;

import io.raglog.score.ModelBundle;
import io.raglog.training.BundleReports;
import io.raglog.training.TierValidation;
import io.raglog.training.Trainer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Trains the per-stage ensembles on labeled runs and writes a versioned model bundle. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Train per-stage classifiers on labeled runs; features come from the same code the job runs.",
            "Thresholds are chosen on out-of-fold probabilities (5-fold cross-validation, folds by question): each "
                    + "stage's is the median of searches on 15 bootstrap replicates of those runs. The bundle's "
                    + "evaluation report is on a held-out test split."})
public final class TrainCommand implements Callable<Integer> {

    @Mixin
    DatasetOptions data;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the bundle.")
    Path out;

    @Option(names = "--name", defaultValue = "raglog-default", description = "Bundle name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--max-run-fpr", defaultValue = "0.05",
            description = "Run-level false-positive budget for choosing thresholds (default: ${DEFAULT-VALUE}); the "
                    + "search keeps the rate's 90%% upper bound on the runs that choose them within it.")
    double maxRunFpr;

    @Option(names = "--tier-max-f1-loss", defaultValue = "" + Trainer.Settings.DEFAULT_TIER_MAX_F1_LOSS,
            description = "Pooled stage F1 the tier gate (tiered mode) may lose against default mode, held in 90%% of "
                    + "bootstrap replicates of the out-of-fold runs that choose its bounds (default: ${DEFAULT-VALUE}).")
    double tierMaxF1Loss;

    @Option(names = "--no-tier-gate", description = "Train no tier gate (tiered mode then checks every run).")
    boolean noTierGate;

    @Override
    public Integer call() throws Exception {
        LabeledDataset.Joined dataset = data.load();
        System.out.println(dataset.describe());
        Trainer.Settings defaults = Trainer.Settings.defaults(name);
        Trainer.Settings settings = new Trainer.Settings(name, defaults.seed(), defaults.validationShare(),
                defaults.testShare(), maxRunFpr, defaults.minPerClass(), defaults.models())
                .withTierGate(!noTierGate, tierMaxF1Loss);
        ModelBundle bundle = Trainer.train(dataset.runs(), settings, Instant.now());
        bundle.save(out);
        System.out.println("bundle " + bundle.id() + " -> " + out);
        if (bundle.manifest().tierGate() != null) {
            TierValidation v = BundleReports.tierValidation(bundle);
            System.out.printf(Locale.ROOT, "tier gate (%d runs that chose its bounds): skips %.1f%% of runs, %.1f%% "
                    + "of LLM calls; stage F1 %.4f tiered vs %.4f default (loss %.4f, budget %.4f), run FPR %.3f vs "
                    + "%.3f; loss charged for harm only (no credit where the gate beats default mode) at the %.0f%% "
                    + "bootstrap quantile %.4f%n", v.runs(), 100 * v.skipShare(),
                    100 * v.callsSavedShare(), v.tieredF1(), v.defaultF1(), v.f1Loss(), v.maxF1Loss(), v.tieredRunFpr(),
                    v.defaultRunFpr(), 100 * v.confidence(), v.f1LossUpperBound());
            System.out.println("tier gate bounds (cheap-only probability: clearly healthy below / clearly faulty "
                    + "from): " + bundle.manifest().tierGate().bounds());
        }
        System.out.println(BundleReports.evaluation(bundle).toTable());
        return 0;
    }
}

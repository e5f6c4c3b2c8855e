package io.raglog.cli;

import io.raglog.job.DefaultBundle;
import io.raglog.job.Topics;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Stage;
import io.raglog.score.ModelBundle;
import io.raglog.training.ThresholdSuggester;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Suggests per-stage thresholds from a team's own hand-labeled runs for a chosen false-positive rate. */
@Command(name = "thresholds", mixinStandardHelpOptions = true,
        description = "Suggest per-stage thresholds from hand-labeled runs, keeping the run-level false-positive "
                + "rate under --max-fpr; optionally write a bundle that uses them, or publish them as a pipeline's "
                + "override for the running job.")
public final class ThresholdsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions data;

    @Option(names = "--bundle", paramLabel = "DIR", description = "Model bundle (default: the one raglog ships).")
    Path bundle;

    @Option(names = "--max-fpr", defaultValue = "0.05",
            description = "Largest acceptable run-level false-positive rate, kept at 90%% confidence from the "
                    + "labeled sound runs (default: ${DEFAULT-VALUE}).")
    double maxFpr;

    @Option(names = "--out", paramLabel = "DIR", description = "Write a copy of the bundle with these thresholds.")
    Path out;

    @Option(names = "--pipeline", paramLabel = "NAME",
            description = "Suggest from this pipeline's runs only (default: every run read); needed by --publish.")
    String pipeline;

    @Option(names = "--publish", paramLabel = "BOOTSTRAP",
            description = "Publish the stages whose threshold moved as the pipeline's next override "
                    + "(raglog.thresholds/v1) to this Kafka cluster: the running job applies it to the pipeline's "
                    + "next runs.")
    String publish;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The overrides' topic (default: ${DEFAULT-VALUE}).")
    String topic = Topics.DEFAULTS.thresholds();

    @Option(names = "--source", paramLabel = "NAME", description = "Where the labels came from, as the override's "
            + "basis.source and each verdict's thresholds.source (default: ${DEFAULT-VALUE}).")
    String source = PipelineThresholds.SOURCE_REVIEWS;

    @Override
    public Integer call() throws Exception {
        if (publish != null && pipeline == null) {
            throw new ParameterException(spec.commandLine(), "--publish needs --pipeline: an override is one pipeline's");
        }
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
            if (publish != null) {
                publish(model, suggestion, dataset.runs().size());
            }
        }
        return 0;
    }

    /**
     * The stages whose threshold moved, as the pipeline's next version for this bundle; none moved is an override too
     * (the bundle's thresholds are best on these reviews, and an earlier override is no longer in force).
     */
    private void publish(ModelBundle model, ThresholdSuggester.Suggestion suggestion, int runs) throws Exception {
        Map<Stage, Double> moved = new EnumMap<>(Stage.class);
        suggestion.stages().forEach((id, s) -> {
            if (s.changed()) {
                moved.put(Stage.of(id), s.suggested());
            }
        });
        ThresholdsTopic thresholds = new ThresholdsTopic(publish, topic);
        thresholds.ensureCompacted();
        PipelineThresholds override = PipelineThresholds.of(pipeline, thresholds.latestVersion(pipeline) + 1,
                model.id(), moved, new PipelineThresholds.Basis(runs, maxFpr, source), Instant.now());
        RecordMetadata sent = thresholds.publish(override);
        System.out.println("published " + override.label() + " " + override.thresholds() + " for bundle "
                + model.id() + " -> " + topic + " (partition " + sent.partition() + ", offset " + sent.offset() + ")");
    }
}

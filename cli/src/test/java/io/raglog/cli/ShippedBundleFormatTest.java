package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.DefaultBundle;
import io.raglog.score.ModelBundle;
import io.raglog.training.BundleReports;
import io.raglog.training.EvaluationReport;
import io.raglog.training.TierValidation;
import io.raglog.training.TrainingSummary;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped bundle as the job loads it (reports kept as JSON) and as training reads it (reports as records): saving
 * it again writes the very manifest it was loaded from, so moving the reports' types out of the runtime changed
 * nothing on disk.
 */
class ShippedBundleFormatTest {

    @Test
    void shouldSaveTheShippedManifestByteForByteAndReadItsReportsAsTrainingRecords(@TempDir Path dir)
            throws Exception {
        byte[] shipped;
        try (InputStream in = ModelBundle.class.getClassLoader()
                .getResourceAsStream(DefaultBundle.RESOURCE + "/" + ModelBundle.MANIFEST)) {
            shipped = in.readAllBytes();
        }
        try (ModelBundle bundle = DefaultBundle.load()) {
            bundle.save(dir);
            assertThat(Files.readAllBytes(dir.resolve(ModelBundle.MANIFEST))).isEqualTo(shipped);

            TrainingSummary training = BundleReports.training(bundle);
            assertThat(training.runs()).isPositive();
            assertThat(training.settings().models().boosting().rounds()).isPositive();
            EvaluationReport evaluation = BundleReports.evaluation(bundle);
            assertThat(evaluation.modelBundle()).isEqualTo(bundle.id());
            TierValidation gate = BundleReports.tierValidation(bundle);
            assertThat(gate.runs()).isPositive();
            try (ModelBundle reloaded = ModelBundle.load(dir)) {
                assertThat(reloaded.id()).isEqualTo(bundle.id());
            }
        }
    }
}

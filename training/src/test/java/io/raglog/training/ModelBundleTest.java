package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelBundleTest {

    private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

    private static ModelBundle trained;
    private static List<LabeledRun> runs;

    @BeforeAll
    static void train() {
        trained = Trainer.train(SyntheticRuns.generate(400, 21), Trainer.Settings.defaults("round-trip"), AT);
        runs = SyntheticRuns.generate(200, 22);
    }

    @AfterAll
    static void close() {
        trained.close();
    }

    @Test
    void shouldScoreBitForBitTheSameAfterSaveAndLoad(@TempDir Path dir) {
        trained.save(dir);
        try (ModelBundle loaded = ModelBundle.load(dir)) {
            assertThat(loaded.id()).isEqualTo(trained.id());
            assertThat(loaded.thresholds()).isEqualTo(trained.thresholds());
            assertThat(loaded.features()).isEqualTo(trained.features());
            assertThat(loaded.judge()).isEqualTo(SyntheticRuns.JUDGE);
            assertThat(Json.write(loaded.evaluation())).isEqualTo(Json.write(trained.evaluation()));
            Scorer before = new Scorer(trained);
            Scorer after = new Scorer(loaded);
            for (LabeledRun run : runs) {
                Verdict a = before.score(run.input(), AT);
                Verdict b = after.score(run.input(), AT);
                assertThat(b).isEqualTo(a); // records: every probability compared with ==, not within a tolerance
            }
        }
    }

    @Test
    void shouldWriteAVersionedManifestAPersonCanRead(@TempDir Path dir) throws Exception {
        trained.save(dir);
        String manifest = Files.readString(dir.resolve(ModelBundle.MANIFEST));
        assertThat(manifest).contains("\"format\" : \"raglog.bundle/v1\"", "\"id\" : \"" + trained.id() + "\"",
                "\"judge\" : \"offline-judge/v1\"", "\"feature_space\"", "\"thresholds\"", "\"training\"",
                "\"evaluation\"", "\"max_run_fpr\"");
        for (Stage stage : Stage.values()) {
            if (ModelBundle.mayLack(stage)) {
                // the synthetic runs never show context assembly: the bundle leaves it unscored and writes no model
                assertThat(dir.resolve(stage.id() + ".models.json")).doesNotExist();
                continue;
            }
            assertThat(dir.resolve(stage.id() + ".models.json")).exists();
            assertThat(dir.resolve(stage.id() + ".xgboost.ubj")).exists();
        }
    }

    @Test
    void shouldRefuseABundleWhoseFilesNoLongerMatchItsId(@TempDir Path dir) throws Exception {
        trained.save(dir);
        Path models = dir.resolve("rerank.models.json");
        String json = Files.readString(models);
        Files.writeString(models, json.replaceFirst("\"bias\":-?[0-9.E-]+", "\"bias\":0.123"));
        assertThat(Files.readString(models)).isNotEqualTo(json);
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(trained.id())
                .hasMessageContaining("hash");
    }

    @Test
    void shouldLoadABundleShippedAsClasspathResources() throws Exception {
        Path classes = Path.of(ModelBundleTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        trained.save(classes.resolve("raglog/bundles/round-trip"));
        try (ModelBundle shipped = ModelBundle.loadResource("raglog/bundles/round-trip")) {
            assertThat(shipped.id()).isEqualTo(trained.id());
            LabeledRun run = runs.get(0);
            assertThat(new Scorer(shipped).score(run.input(), AT)).isEqualTo(new Scorer(trained).score(run.input(), AT));
        }
    }
}

package io.raglog.score;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A trained, versioned set of per-stage models with everything needed to use and judge them: the feature list
 * (names and version), the thresholds, the judge that answered the LLM checks of the training features, a training
 * summary and an evaluation report.
 *
 * <p>On disk it is a directory: {@code bundle.json} (the manifest, readable by a person) and per stage
 * {@code <stage>.models.json} (imputer, logistic regression, extra-trees as plain numbers) and
 * {@code <stage>.xgboost.ubj} (XGBoost's own format). The same layout can ship as classpath resources inside the
 * job jar ({@link #loadResource}). The id is the bundle's name plus a hash of the feature list, judge, thresholds
 * and model files: two bundles with the same id score identically, and loading verifies the files still match it.
 * Doubles are written in shortest round-trip form, so save and load give bit-identical scores.
 *
 * <p>A bundle may carry a tier gate ({@link TierGate}, manifest key {@code tier_gate}, files
 * {@code <stage>.gate.models.json} and {@code <stage>.gate.xgboost.ubj}) for tiered mode; a bundle without one (every
 * bundle written before it existed) loads as before and runs untiered. The gate's files and bounds are part of the id.
 *
 * <p>Holds XGBoost native handles: {@link #close()} frees them.
 */
public final class ModelBundle implements AutoCloseable {

    public static final String FORMAT = "raglog.bundle/v1";
    public static final String MANIFEST = "bundle.json";

    /** The manifest: {@code bundle.json}. */
    public record Manifest(String format, String id, String name, Instant createdAt, FeatureSpace featureSpace,
            String judge, Map<String, Double> thresholds, Weights ensemble, Map<String, StageFiles> files,
            JsonNode training, JsonNode evaluation, List<String> notes, GateManifest tierGate) {}

    /**
     * The tier gate's part of the manifest.
     *
     * @param version the gate's rule and layout, {@link TierGate#VERSION}
     * @param featureSpace the cheap features its models read
     * @param bounds per stage id, where its cheap-only probability is clearly healthy or clearly faulty
     * @param validation what the bounds reached on the runs that chose them (training's {@code TierValidation})
     */
    public record GateManifest(String version, FeatureSpace featureSpace, Map<String, TierGate.Bounds> bounds,
            Map<String, StageFiles> files, JsonNode validation) {}

    public record Weights(double logisticRegression, double gradientBoostedTrees, double extraTrees) {

        static Weights fixed() {
            return new Weights(Ensemble.LOGISTIC_REGRESSION, Ensemble.GRADIENT_BOOSTED_TREES, Ensemble.EXTRA_TREES);
        }
    }

    public record StageFiles(String models, String boostedTrees) {

        static StageFiles of(Stage stage) {
            return new StageFiles(stage.id() + ".models.json", stage.id() + ".xgboost.ubj");
        }

        static StageFiles gateOf(Stage stage) {
            return new StageFiles(stage.id() + ".gate.models.json", stage.id() + ".gate.xgboost.ubj");
        }
    }

    /** The two models that read imputed rows, with their imputer. */
    record ImputedModels(Imputer imputer, LogisticRegression logisticRegression, ExtraTrees extraTrees) {}

    /** Reads one file of a bundle by name. */
    @FunctionalInterface
    interface Source {
        byte[] read(String name) throws IOException;
    }

    private final Manifest manifest;
    private final Map<Stage, StageModel> models;
    /**
     * The files as read or written, for {@link #save} and the bundles derived from this one; null in a bundle loaded
     * for scoring ({@link #forScoring}), which keeps only the models read from them.
     */
    private final Map<String, byte[]> files;
    private final TierGate gate;

    private ModelBundle(Manifest manifest, Map<Stage, StageModel> models, Map<String, byte[]> files, TierGate gate) {
        this.manifest = manifest;
        this.models = models;
        this.files = files;
        this.gate = gate;
    }

    /**
     * A new bundle around freshly trained models; it takes them over (closing it closes them). The training summary
     * and the evaluation report are the training module's records: the bundle stores them as the JSON they write to,
     * for people and tools to read; scoring never does.
     */
    public static ModelBundle create(String name, Instant createdAt, FeatureSpace featureSpace, String judge,
            Map<Stage, Double> thresholds, Map<Stage, ? extends StageModel> models, Object training,
            Object evaluation) {
        return create(name, createdAt, featureSpace, judge, thresholds, models, training, evaluation, null, null);
    }

    /** The same with a tier gate (null: none) and what its bounds reached; the bundle takes the gate over too. */
    public static ModelBundle create(String name, Instant createdAt, FeatureSpace featureSpace, String judge,
            Map<Stage, Double> thresholds, Map<Stage, ? extends StageModel> models, Object training,
            Object evaluation, TierGate gate, Object gateValidation) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        Map<String, StageFiles> names = writeModels(models, StageFiles::of, files);
        GateManifest gateManifest = null;
        if (gate != null) {
            Map<Stage, StageModel> gateModels = new EnumMap<>(Stage.class);
            Map<String, TierGate.Bounds> bounds = new LinkedHashMap<>();
            for (Stage stage : Stage.values()) {
                if (gate.scores(stage)) {
                    gateModels.put(stage, gate.model(stage));
                    bounds.put(stage.id(), gate.bounds().get(stage));
                }
            }
            Map<String, StageFiles> gateNames = writeModels(gateModels, StageFiles::gateOf, files);
            gateManifest = new GateManifest(TierGate.VERSION, gate.features(), bounds, gateNames, tree(gateValidation));
        }
        Map<String, Double> byId = thresholdsById(thresholds);
        for (Stage stage : Stage.values()) {
            if (models.containsKey(stage) != byId.containsKey(stage.id())) {
                throw new IllegalArgumentException("stage " + stage.id() + " needs both a model and a threshold, or "
                        + "neither (a stage the bundle does not score)");
            }
        }
        String id = name + "@" + hash(featureSpace, judge, byId, files, gateManifest);
        Manifest manifest = new Manifest(FORMAT, id, name, createdAt, featureSpace, judge, byId, Weights.fixed(),
                names, tree(training), tree(evaluation), List.of(), gateManifest);
        return new ModelBundle(manifest, new EnumMap<>(models), files, gate);
    }

    /** A report as the JSON it writes to; null stays null (absent from the manifest as before). */
    private static JsonNode tree(Object report) {
        return report == null ? null : Json.MAPPER.valueToTree(report);
    }

    private static Map<String, StageFiles> writeModels(Map<Stage, ? extends StageModel> models,
            java.util.function.Function<Stage, StageFiles> naming, Map<String, byte[]> files) {
        Map<String, StageFiles> names = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            StageModel model = models.get(stage);
            if (model == null && mayLack(stage)) {
                continue;
            }
            if (model == null) {
                throw new IllegalArgumentException("a bundle needs a model for every stage; " + stage.id() + " has none");
            }
            StageFiles f = naming.apply(stage);
            names.put(stage.id(), f);
            files.put(f.models(), Json.writeBytes(
                    new ImputedModels(model.imputer(), model.logistic(), model.extraTrees())));
            files.put(f.boostedTrees(), model.boosted().toBytes());
        }
        return names;
    }

    /**
     * The same models with the evaluation report attached (the report is not part of the id): training's
     * {@code EvaluationReport}, stored as its JSON.
     */
    public ModelBundle withEvaluation(Object evaluation) {
        requireFiles("given an evaluation report");
        Manifest m = manifest;
        return fromFiles(new Manifest(m.format(), m.id(), m.name(), m.createdAt(), m.featureSpace(), m.judge(),
                m.thresholds(), m.ensemble(), m.files(), m.training(), tree(evaluation), m.notes(), m.tierGate()),
                files);
    }

    /**
     * The same models with other thresholds, e.g. from {@code io.raglog.training.ThresholdSuggester}: a new bundle
     * with a new id (its decisions differ), independent of this one. The evaluation report predates the new
     * thresholds; the note says so.
     */
    public ModelBundle withThresholds(Map<Stage, Double> thresholds, String why) {
        requireFiles("given other thresholds");
        Map<String, Double> byId = thresholdsById(thresholds);
        List<String> notes = new ArrayList<>(manifest.notes());
        notes.add(why + " (replaced thresholds " + manifest.thresholds() + " of " + manifest.id()
                + "; the evaluation report was made with those)");
        Manifest m = manifest;
        String id = m.name() + "@" + hash(m.featureSpace(), m.judge(), byId, files, m.tierGate());
        return fromFiles(new Manifest(m.format(), id, m.name(), m.createdAt(), m.featureSpace(), m.judge(), byId,
                m.ensemble(), m.files(), m.training(), m.evaluation(), List.copyOf(notes), m.tierGate()), files);
    }

    public void save(Path dir) {
        requireFiles("saved");
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                Files.write(dir.resolve(file.getKey()), file.getValue());
            }
            // The manifest last: a directory with a manifest is a complete bundle.
            Files.write(dir.resolve(MANIFEST), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write model bundle to " + dir, e);
        }
    }

    /**
     * The same models without the files they were read from: what a scoring task keeps. The files' bytes are a large
     * share of a loaded bundle's heap (the bench's {@code bundle_heap_mb_loaded} against
     * {@code bundle_heap_mb_scoring}), and only saving a bundle or deriving another from it reads them again. This
     * bundle hands its models over: close the one returned, not both.
     */
    public ModelBundle forScoring() {
        return files == null ? this : new ModelBundle(manifest, models, null, gate);
    }

    private void requireFiles(String what) {
        if (files == null) {
            throw new IllegalStateException("model bundle " + manifest.id() + " was loaded for scoring and cannot be "
                    + what + ": load it with ModelBundle.load");
        }
    }

    public static ModelBundle load(Path dir) {
        return load(name -> Files.readAllBytes(dir.resolve(name)), dir.toString());
    }

    /** A bundle shipped as classpath resources under {@code prefix}, e.g. {@code raglog/bundles/default}. */
    public static ModelBundle loadResource(String prefix) {
        ClassLoader loader = ModelBundle.class.getClassLoader();
        String base = prefix.endsWith("/") ? prefix : prefix + "/";
        return load(name -> {
            try (InputStream in = loader.getResourceAsStream(base + name)) {
                if (in == null) {
                    throw new IOException("no classpath resource " + base + name);
                }
                return in.readAllBytes();
            }
        }, "classpath:" + base);
    }

    static ModelBundle load(Source source, String where) {
        try {
            Manifest manifest = Json.read(source.read(MANIFEST), Manifest.class);
            if (!FORMAT.equals(manifest.format())) {
                throw new IllegalArgumentException(where + " is a " + manifest.format() + " bundle, this reads " + FORMAT);
            }
            Map<String, byte[]> files = new LinkedHashMap<>();
            for (Stage stage : Stage.values()) {
                StageFiles f = manifest.files().get(stage.id());
                if (f == null && mayLack(stage)) {
                    continue;
                }
                if (f == null) {
                    throw new IllegalArgumentException(where + " has no models for stage " + stage.id());
                }
                files.put(f.models(), source.read(f.models()));
                files.put(f.boostedTrees(), source.read(f.boostedTrees()));
            }
            GateManifest gate = manifest.tierGate();
            if (gate != null) {
                if (!TierGate.VERSION.equals(gate.version())) {
                    throw new IllegalArgumentException(where + " has a " + gate.version() + " tier gate, this reads "
                            + TierGate.VERSION);
                }
                for (Stage stage : Stage.values()) {
                    StageFiles f = gate.files().get(stage.id());
                    if (f == null && mayLack(stage)) {
                        continue;
                    }
                    if (f == null) {
                        throw new IllegalArgumentException(where + " has no tier gate model for stage " + stage.id());
                    }
                    files.put(f.models(), source.read(f.models()));
                    files.put(f.boostedTrees(), source.read(f.boostedTrees()));
                }
            }
            String expected = manifest.name() + "@"
                    + hash(manifest.featureSpace(), manifest.judge(), manifest.thresholds(), files, gate);
            if (!expected.equals(manifest.id())) {
                throw new IllegalArgumentException("model bundle " + where + " says it is " + manifest.id()
                        + " but its files hash to " + expected + ": a file was changed or is from another bundle");
            }
            return fromFiles(manifest, files);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model bundle " + where, e);
        }
    }

    private static ModelBundle fromFiles(Manifest manifest, Map<String, byte[]> files) {
        Map<Stage, StageModel> models = new EnumMap<>(Stage.class);
        Map<Stage, StageModel> gateModels = new EnumMap<>(Stage.class);
        GateManifest g = manifest.tierGate();
        try {
            readModels(manifest.files(), manifest.featureSpace().size(), files, models);
            TierGate gate = null;
            if (g != null) {
                readModels(g.files(), g.featureSpace().size(), files, gateModels);
                Map<Stage, TierGate.Bounds> bounds = new EnumMap<>(Stage.class);
                for (Stage stage : Stage.values()) {
                    if (g.bounds().get(stage.id()) != null) {
                        bounds.put(stage, g.bounds().get(stage.id()));
                    }
                }
                gate = new TierGate(g.featureSpace(), gateModels, bounds);
            }
            return new ModelBundle(manifest, models, files, gate);
        } catch (RuntimeException e) {
            models.values().forEach(StageModel::close);
            gateModels.values().forEach(StageModel::close);
            throw e;
        }
    }

    private static void readModels(Map<String, StageFiles> names, int width, Map<String, byte[]> files,
            Map<Stage, StageModel> into) {
        for (Stage stage : Stage.values()) {
            StageFiles f = names.get(stage.id());
            if (f == null) {
                continue; // a stage added after the bundle was trained (load checked that it may be missing)
            }
            ImputedModels imputed = Json.read(files.get(f.models()), ImputedModels.class);
            into.put(stage, new StageModel(imputed.imputer(), imputed.logisticRegression(),
                    GradientBoostedTrees.load(files.get(f.boostedTrees()), width), imputed.extraTrees()));
        }
    }

    public String id() {
        return manifest.id();
    }

    public String name() {
        return manifest.name();
    }

    /** The judge whose answers made the training features; scoring features of another judge is a loud warning. */
    public String judge() {
        return manifest.judge();
    }

    public FeatureSpace features() {
        return manifest.featureSpace();
    }

    public double threshold(Stage stage) {
        Double t = manifest.thresholds().get(stage.id());
        if (t == null) {
            throw new IllegalStateException("bundle " + id() + " has no threshold for " + stage.id());
        }
        return t;
    }

    /** The thresholds of the stages this bundle scores. */
    public Map<Stage, Double> thresholds() {
        Map<Stage, Double> out = new EnumMap<>(Stage.class);
        for (Stage stage : models.keySet()) {
            out.put(stage, threshold(stage));
        }
        return out;
    }

    public StageModel model(Stage stage) {
        return models.get(stage);
    }

    /** Whether the bundle has a model for the stage: a bundle trained before a stage existed does not score it. */
    public boolean scores(Stage stage) {
        return models.containsKey(stage);
    }

    /** Of a run's present stages, those this bundle scores; the others are written as not scored. */
    public Set<Stage> scored(Set<Stage> present) {
        Set<Stage> out = EnumSet.noneOf(Stage.class);
        for (Stage stage : present) {
            if (scores(stage)) {
                out.add(stage);
            }
        }
        return out;
    }

    /**
     * Stages added after bundles were first trained: an older bundle has no model, threshold or gate bounds for them,
     * loads as before (same id) and leaves them unscored. Context assembly came with {@code raglog.run/v2}.
     */
    public static boolean mayLack(Stage stage) {
        return stage == Stage.ASSEMBLE;
    }

    /** The training summary as stored; {@code io.raglog.training.BundleReports} reads it as its record. */
    public JsonNode training() {
        return manifest.training();
    }

    /** The evaluation report as stored, or null; {@code io.raglog.training.BundleReports} reads it as its record. */
    public JsonNode evaluation() {
        return manifest.evaluation();
    }

    public Manifest manifest() {
        return manifest;
    }

    /** The tier gate, or empty for a bundle trained without one (tiered mode then checks every run). */
    public java.util.Optional<TierGate> tierGate() {
        return java.util.Optional.ofNullable(gate);
    }

    @Override
    public void close() {
        models.values().forEach(StageModel::close);
        if (gate != null) {
            gate.close();
        }
    }

    private static Map<String, Double> thresholdsById(Map<Stage, Double> thresholds) {
        Map<String, Double> byId = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            Double t = thresholds.get(stage);
            if (t == null && mayLack(stage)) {
                continue;
            }
            if (t == null || t.isNaN() || t < 0 || t > 1) {
                throw new IllegalArgumentException("threshold of " + stage.id() + " must be in [0, 1], was " + t);
            }
            byId.put(stage.id(), t);
        }
        return byId;
    }

    /** Without a gate the digest is exactly what it was before gates existed, so older bundles keep their ids. */
    private static String hash(FeatureSpace featureSpace, String judge, Map<String, Double> thresholds,
            Map<String, byte[]> files, GateManifest gate) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(FORMAT.getBytes(StandardCharsets.UTF_8));
            digest.update(Json.writeBytes(featureSpace));
            digest.update(String.valueOf(judge).getBytes(StandardCharsets.UTF_8));
            for (Stage stage : Stage.values()) {
                if (thresholds.containsKey(stage.id()) || !mayLack(stage)) { // an older bundle keeps its id
                    digest.update((stage.id() + "=" + thresholds.get(stage.id())).getBytes(StandardCharsets.UTF_8));
                }
            }
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                digest.update(file.getKey().getBytes(StandardCharsets.UTF_8));
                digest.update(file.getValue());
            }
            if (gate != null) {
                digest.update(gate.version().getBytes(StandardCharsets.UTF_8));
                digest.update(Json.writeBytes(gate.featureSpace()));
                digest.update(Json.writeBytes(gate.bounds()));
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}

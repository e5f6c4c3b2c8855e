package io.raglog.score;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gradient-boosted trees as scoring uses them: loaded from the bundle, predicted. Reads raw rows: NaN is XGBoost's
 * missing value, and each split learned which way missing values go, so no imputation. Stored as UBJSON, XGBoost's
 * own portable model format. Holds a native handle: {@link #close()} frees it.
 *
 * <p>XGBoost trains ({@code io.raglog.training.GradientBoostedTreesFit}) and saves; predictions walk the same trees
 * in Java ({@link BoostedTreesWalk}), about 6 µs a row where a call through JNI costs about 100 µs (measured on the
 * shipped bundle's models, one row at a time as scoring asks). Margins are XGBoost's to the bit; a probability can
 * differ from XGBoost's by one float ulp (Java's {@code exp} against the C library's {@code expf}; 11 rows in
 * 20,000). A model the walk cannot read is predicted by XGBoost itself, which is also why loading needs XGBoost: the
 * walk reads the JSON form that XGBoost makes of the stored UBJSON.
 */
public final class GradientBoostedTrees implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GradientBoostedTrees.class);

    /** The bundle stores the model in this XGBoost format. */
    public static final String FORMAT = "ubj";

    private final Booster booster;
    private final int width;
    /** Null when the model is of a kind the walk does not read: XGBoost predicts then. */
    private final BoostedTreesWalk walk;

    private GradientBoostedTrees(Booster booster, int width) throws XGBoostError {
        this.booster = booster;
        this.width = width;
        this.walk = BoostedTreesWalk.of(booster.toByteArray("json")).orElse(null);
        if (walk == null) {
            // still right, but some 100 us a row through JNI: worth knowing when scoring falls behind
            LOG.warn("boosted trees of a kind the Java walk does not read (objective, categorical splits, several "
                    + "targets): XGBoost predicts them through JNI");
        }
    }

    /**
     * Wraps a booster just trained (it takes it over: {@link #close()} frees it). Predictions use one thread, like a
     * loaded model's.
     */
    public static GradientBoostedTrees of(Booster booster, int width) {
        try {
            booster.setParam("nthread", 1);
            return new GradientBoostedTrees(booster, width);
        } catch (XGBoostError e) {
            throw new IllegalStateException("cannot use the XGBoost model: " + e.getMessage(), e);
        }
    }

    /**
     * Loads a model saved by {@link #toBytes()}. Where XGBoost predicts (a model the walk cannot read), it runs one
     * prediction at a time inside a Flink task that already has its own thread, so it gets {@code nthread=1}: no
     * OpenMP pool per call.
     */
    public static GradientBoostedTrees load(byte[] model, int width) {
        try {
            Booster booster = XGBoost.loadModel(model);
            booster.setParam("nthread", 1);
            return new GradientBoostedTrees(booster, width);
        } catch (XGBoostError | java.io.IOException e) {
            throw new IllegalStateException("cannot load the XGBoost model: " + e.getMessage(), e);
        }
    }

    /** True when predictions walk the trees in Java, false when XGBoost makes them. */
    boolean walksInJava() {
        return walk != null;
    }

    public byte[] toBytes() {
        try {
            return booster.toByteArray(FORMAT);
        } catch (XGBoostError e) {
            throw new IllegalStateException("cannot save the XGBoost model: " + e.getMessage(), e);
        }
    }

    public double predict(double[] raw) {
        return walk != null ? walk.predict(raw) : predict(new double[][] {raw})[0];
    }

    /** Every row through the same path as a single row, so a batch and a single row give the same numbers. */
    public double[] predict(double[][] raw) {
        if (walk != null) {
            double[] p = new double[raw.length];
            for (int i = 0; i < p.length; i++) {
                p[i] = walk.predict(raw[i]);
            }
            return p;
        }
        return predictNatively(raw);
    }

    /**
     * XGBoost's own in-place prediction, through JNI: the reference {@code BoostedTreesWalkTest} holds the walk to. One
     * call at a time per booster: the tasks of a JVM share a bundle ({@code SharedBundles}), and this path, taken only
     * for models the walk cannot read, is not worth relying on XGBoost's thread safety across versions.
     */
    double[] predictNatively(double[][] raw) {
        try {
            float[] rows = flatten(raw, width);
            float[][] out;
            synchronized (booster) {
                out = booster.inplace_predict(rows, raw.length, width, Float.NaN);
            }
            double[] p = new double[raw.length];
            for (int i = 0; i < p.length; i++) {
                p[i] = out[i][0];
            }
            return p;
        } catch (XGBoostError e) {
            throw new IllegalStateException("XGBoost prediction failed: " + e.getMessage(), e);
        }
    }

    /** Rows as XGBoost reads them: one row-major float array. */
    public static float[] flatten(double[][] x, int width) {
        float[] flat = new float[x.length * width];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != width) {
                throw new IllegalArgumentException("row of width " + x[i].length + ", the model reads " + width);
            }
            for (int j = 0; j < width; j++) {
                flat[i * width + j] = (float) x[i][j];
            }
        }
        return flat;
    }

    @Override
    public void close() {
        booster.dispose();
    }
}

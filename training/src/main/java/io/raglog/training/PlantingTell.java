package io.raglog.training;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

/**
 * How far a planted fault can be told from the same kind of fault arising on its own, by the features of the stage it
 * is in: per fault kind seen both planted and natural ({@code Label.origin}), the stage's feature whose values differ
 * most between the two, by the two-sample Kolmogorov-Smirnov statistic (0 when they fall alike, 1 when every planted
 * value lies apart from every natural one). A simulator whose planted faults are told by how they were planted (a
 * budget tighter than any run gets, passages that share no word with the question) teaches the classifiers the
 * planting and flatters every figure measured on its runs; this is where it shows. Labels from reviews carry no
 * origin, and then there is nothing to compare.
 *
 * @param faultType the root fault's kind, e.g. {@code assemble.evidence_cut}
 * @param injected runs whose root fault of this kind was planted
 * @param natural runs whose root fault of this kind arose on its own
 * @param feature the feature of the fault's stage whose planted and natural values differ most
 * @param ks that feature's two-sample KS statistic
 * @param injectedMedian the feature's median over the planted runs
 * @param naturalMedian its median over the natural ones
 */
public record PlantingTell(String faultType, int injected, int natural, String feature, double ks,
        double injectedMedian, double naturalMedian) {

    /** The fewest runs of each origin a kind needs to be compared: with fewer, KS is mostly the sample's. */
    static final int MIN_RUNS = 8;

    /** A kind's runs by origin. */
    private record Origins(List<LabeledRun> planted, List<LabeledRun> natural) {}

    /** Each kind with at least {@link #MIN_RUNS} planted and natural runs, by kind. */
    static Map<String, PlantingTell> of(List<LabeledRun> runs) {
        Map<String, Origins> byKind = new TreeMap<>();
        for (LabeledRun run : runs) {
            Label label = run.label();
            if (label.faultType() == null || label.faultStage() == null || label.origin() == null) {
                continue;
            }
            Origins origins = byKind.computeIfAbsent(label.faultType(),
                    k -> new Origins(new ArrayList<>(), new ArrayList<>()));
            if (Label.ORIGIN_INJECTED.equals(label.origin())) {
                origins.planted().add(run);
            } else if (Label.ORIGIN_NATURAL.equals(label.origin())) {
                origins.natural().add(run);
            }
        }
        Map<String, PlantingTell> out = new TreeMap<>();
        byKind.forEach((kind, origins) -> {
            if (origins.planted().size() < MIN_RUNS || origins.natural().size() < MIN_RUNS) {
                return;
            }
            Stage stage = Stage.of(origins.planted().get(0).label().faultStage());
            PlantingTell most = null;
            for (FeatureList.Feature f : FeatureList.forStage(stage)) {
                double[] planted = values(origins.planted(), f.name());
                double[] natural = values(origins.natural(), f.name());
                if (planted.length < MIN_RUNS || natural.length < MIN_RUNS) {
                    continue;
                }
                double ks = ks(planted, natural);
                if (most == null || ks > most.ks()) {
                    most = new PlantingTell(kind, origins.planted().size(), origins.natural().size(), f.name(), ks,
                            median(planted), median(natural));
                }
            }
            if (most != null) {
                out.put(kind, most);
            }
        });
        return out;
    }

    /** The feature's values over the runs that have it. */
    private static double[] values(List<LabeledRun> runs, String feature) {
        double[] out = new double[runs.size()];
        int n = 0;
        for (LabeledRun run : runs) {
            Double v = run.input().features().feature(feature);
            if (v != null && !v.isNaN()) {
                out[n++] = v;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The largest gap between the two samples' empirical distribution functions (commons-math3's statistic). */
    static double ks(double[] a, double[] b) {
        return KS.kolmogorovSmirnovStatistic(a, b);
    }

    private static final KolmogorovSmirnovTest KS = new KolmogorovSmirnovTest();

    private static double median(double[] values) {
        return new Median().evaluate(values);
    }
}

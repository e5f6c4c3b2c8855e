package io.raglog.score;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Extremely randomized trees (Geurts, Ernst and Wehenkel, 2006): every tree sees the whole training set (no
 * bootstrap), and at each node draws a few features and one uniformly random cut-point per feature between the
 * node's minimum and maximum, keeping the draw with the best Gini gain. The prediction is the mean of the trees'
 * leaf frequencies of class 1. This is the fitted forest as scoring reads it; {@code io.raglog.training.ExtraTreesFit}
 * grows it.
 */
public final class ExtraTrees {

    private final List<Tree> trees;
    /**
     * The same trees for scoring, inner nodes only: two longs each, the threshold and {@code feature << 48 | left <<
     * 24 | right}, trees in pre-order one after the other. A child is a 24-bit code: at least 0, an inner node of the
     * same tree counted from its root; below 0, {@code ~i} for the leaf value {@code leafValues[i]}. Leaves are half
     * of the nodes and their values few (at most 378 distinct in a forest of the shipped bundle), so this halves the
     * memory a walk reads; with {@link #predict} walking four trees at once, the shipped bundle's six forests score a
     * run in 32 µs instead of 45 (StageModelBenchmarks; the smaller nodes alone gained 7 %, the overlapped walks the
     * rest).
     */
    private final long[] inner;
    /** Where each tree's root is in {@link #inner}, in nodes. */
    private final int[] bases;
    /** Each tree's root as a child code: 0, or a leaf's code when the tree is one leaf. */
    private final int[] roots;
    /** Every distinct leaf value once. */
    private final double[] leafValues;

    @JsonCreator
    public ExtraTrees(@JsonProperty("trees") List<Tree> trees) {
        this.trees = List.copyOf(trees);
        Packing packing = new Packing(this.trees);
        this.inner = packing.inner;
        this.bases = packing.bases;
        this.roots = packing.roots;
        this.leafValues = packing.leafValues();
    }

    /** Lays the trees out as {@link #inner} reads them. */
    private static final class Packing {

        private static final int CODE_BITS = 24;
        private static final int MAX_CODE = (1 << (CODE_BITS - 1)) - 1;
        private static final long CODE_MASK = (1L << CODE_BITS) - 1;

        final long[] inner;
        final int[] bases;
        final int[] roots;
        private final Map<Long, Integer> leafCodes = new LinkedHashMap<>();
        private int next;

        Packing(List<Tree> trees) {
            int inners = 0;
            for (Tree tree : trees) {
                for (int feature : tree.feature()) {
                    inners += feature < 0 ? 0 : 1;
                }
            }
            inner = new long[2 * inners];
            bases = new int[trees.size()];
            roots = new int[trees.size()];
            for (int t = 0; t < trees.size(); t++) {
                bases[t] = next;
                roots[t] = place(trees.get(t), 0, next);
            }
        }

        /** Writes the subtree at {@code node} in pre-order, if it is inner; returns its child code. */
        private int place(Tree tree, int node, int base) {
            int feature = tree.feature()[node];
            if (feature < 0) {
                long bits = Double.doubleToRawLongBits(tree.value()[node]);
                return ~fits(leafCodes.computeIfAbsent(bits, b -> leafCodes.size()), "distinct leaf values");
            }
            if (feature > 0xffff) {
                throw new IllegalArgumentException("feature " + feature + " is beyond the 65,536 a packed node holds");
            }
            int at = next++;
            int left = place(tree, tree.left()[node], base);
            int right = place(tree, tree.right()[node], base);
            inner[2 * at] = Double.doubleToRawLongBits(tree.threshold()[node]);
            inner[2 * at + 1] = (long) feature << 48 | (left & CODE_MASK) << CODE_BITS | (right & CODE_MASK);
            return fits(at - base, "inner nodes in one tree");
        }

        private static int fits(int code, String what) {
            if (code > MAX_CODE) {
                throw new IllegalArgumentException("more " + what + " than a packed node can point to");
            }
            return code;
        }

        double[] leafValues() {
            return leafCodes.keySet().stream().mapToDouble(Double::longBitsToDouble).toArray();
        }
    }

    @JsonProperty("trees")
    public List<Tree> trees() {
        return trees;
    }

    /**
     * One tree as parallel arrays; node 0 is the root. A leaf has {@code feature == -1} and its class-1 frequency in
     * {@code value}; an inner node sends {@code x[feature] < threshold} left, the rest right.
     */
    public record Tree(int[] feature, double[] threshold, int[] left, int[] right, double[] value) {

        public int size() {
            return feature.length;
        }
    }

    /** The mean of the trees' leaves: the same doubles, added in the same order, as the trees' own walks give. */
    public double predict(double[] x) {
        double sum = 0;
        int t = 0;
        for (; t + 4 <= roots.length; t += 4) { // four walks at once: their loads and compares overlap
            int a = roots[t];
            int b = roots[t + 1];
            int c = roots[t + 2];
            int d = roots[t + 3];
            while ((a & b & c & d) >= 0) { // some tree not yet at its leaf
                a = a < 0 ? a : step(bases[t], a, x);
                b = b < 0 ? b : step(bases[t + 1], b, x);
                c = c < 0 ? c : step(bases[t + 2], c, x);
                d = d < 0 ? d : step(bases[t + 3], d, x);
            }
            sum += leafValues[~a];
            sum += leafValues[~b];
            sum += leafValues[~c];
            sum += leafValues[~d];
        }
        for (; t < roots.length; t++) {
            int code = roots[t];
            while (code >= 0) {
                code = step(bases[t], code, x);
            }
            sum += leafValues[~code];
        }
        return sum / roots.length;
    }

    /** The child code of inner node {@code code} of the tree at {@code base} that {@code x} goes to. */
    private int step(int base, int code, double[] x) {
        int at = 2 * (base + code);
        long meta = inner[at + 1];
        // 24 bits sign-extended: the left child's code from bits 24 to 47, the right one's from 0 to 23
        return x[(int) (meta >>> 48)] < Double.longBitsToDouble(inner[at])
                ? (int) (meta >> 16) >> 8
                : (int) meta << 8 >> 8;
    }

    public int nodes() {
        return trees.stream().mapToInt(Tree::size).sum();
    }
}

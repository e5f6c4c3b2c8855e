package io.raglog.score;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Optional;

/**
 * An XGBoost binary-logistic model's trees walked in Java, with XGBoost's own arithmetic: inputs and split values as
 * floats, {@code x < split} goes left, a missing (NaN) input takes the node's default direction, the leaves are added
 * in float, tree by tree, to the base margin, and the sum goes through XGBoost's float sigmoid. Read from the model's
 * JSON form, which carries every float exactly.
 *
 * <p>Why: scoring calls the model once per stage per run, one row at a time, and through JNI each call cost about
 * 100 µs for some 150 trees of depth 4, a few hundred node visits: in thread dumps of the warm no-vector job, a third
 * of the running time of the thread that assembles, checks and scores runs (440 of 1,349 samples). The walk takes a
 * few microseconds. {@link GradientBoostedTrees} keeps XGBoost for training, saving and any model this class does not
 * read ({@link #of} says so), and {@code BoostedTreesWalkTest} holds the two to the same margins.
 */
final class BoostedTreesWalk {

    /** The exact decimal of every float: the JSON writer prints the shortest text that reads back as that float. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /**
     * Every node as three ints, trees in pre-order one after the other: its split value's float bits (a leaf: its
     * value's), its feature shifted left by one with the default-left flag in bit 0 (a leaf: -1), and its right
     * child's index; the left child is the next node.
     */
    private final int[] nodes;
    private final int[] roots;
    private final float baseMargin;
    private final int width;

    private BoostedTreesWalk(int[] nodes, int[] roots, float baseMargin, int width) {
        this.nodes = nodes;
        this.roots = roots;
        this.baseMargin = baseMargin;
        this.width = width;
    }

    /**
     * The walk of a model saved in XGBoost's JSON format; empty when the model is of a kind this class does not
     * evaluate (another objective or booster, categorical splits, several targets or classes, vector leaves).
     */
    static Optional<BoostedTreesWalk> of(byte[] jsonModel) {
        JsonNode learner;
        try {
            learner = EXACT.readTree(jsonModel).path("learner");
        } catch (IOException e) {
            return Optional.empty();
        }
        JsonNode param = learner.path("learner_model_param");
        JsonNode booster = learner.path("gradient_booster");
        JsonNode model = booster.path("model");
        if (!"binary:logistic".equals(learner.path("objective").path("name").asText())
                || !"gbtree".equals(booster.path("name").asText())
                || !"1".equals(model.path("gbtree_model_param").path("num_parallel_tree").asText("1"))
                || !"0".equals(param.path("num_class").asText("0"))
                || !"1".equals(param.path("num_target").asText("1"))) {
            return Optional.empty();
        }
        float baseScore;
        int width;
        try {
            // "[3.2661995E-1]" since XGBoost 2.1 (a vector, one value per target), a plain number before
            baseScore = Float.parseFloat(param.path("base_score").asText().replace("[", "").replace("]", ""));
            width = Integer.parseInt(param.path("num_feature").asText());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (!(baseScore > 0f && baseScore < 1f)) {
            return Optional.empty();
        }
        JsonNode trees = model.path("trees");
        int total = 0;
        for (JsonNode tree : trees) {
            total += tree.path("left_children").size();
        }
        int[] nodes = new int[3 * total];
        int[] roots = new int[trees.size()];
        int[] free = {0};
        for (int t = 0; t < roots.length; t++) {
            TreeArrays tree = TreeArrays.of(trees.get(t));
            roots[t] = free[0];
            if (tree == null || !place(0, tree, nodes, free, free[0] + tree.size(), width)) {
                return Optional.empty();
            }
        }
        return Optional.of(new BoostedTreesWalk(nodes, roots, probabilityToMargin(baseScore), width));
    }

    /** One tree's node arrays as the JSON model holds them, node 0 the root. */
    private record TreeArrays(JsonNode left, JsonNode right, JsonNode split, JsonNode feature, JsonNode defaultLeft) {

        /** Null when the tree is not a plain one: arrays of different lengths, vector leaves, categorical splits. */
        static TreeArrays of(JsonNode tree) {
            TreeArrays arrays = new TreeArrays(tree.path("left_children"), tree.path("right_children"),
                    tree.path("split_conditions"), tree.path("split_indices"), tree.path("default_left"));
            int n = arrays.size();
            if (n == 0 || arrays.right.size() != n || arrays.split.size() != n || arrays.feature.size() != n
                    || arrays.defaultLeft.size() != n
                    || !"1".equals(tree.path("tree_param").path("size_leaf_vector").asText("1"))) {
                return null;
            }
            for (JsonNode type : tree.path("split_type")) {
                if (type.asInt() != 0) {
                    return null; // a categorical split
                }
            }
            return arrays;
        }

        int size() {
            return left.size();
        }
    }

    /**
     * Writes the subtree at {@code node} in pre-order from {@code free[0]} on, advancing it; the tree's slots end
     * before {@code end}. False when the arrays do not make a tree.
     */
    private static boolean place(int node, TreeArrays tree, int[] nodes, int[] free, int end, int width) {
        int at = free[0]++;
        if (at >= end) {
            return false; // a cycle: not a tree
        }
        nodes[3 * at] = Float.floatToRawIntBits(Float.parseFloat(tree.split().get(node).asText()));
        int left = tree.left().get(node).asInt();
        if (left == -1) {
            nodes[3 * at + 1] = -1;
            nodes[3 * at + 2] = -1;
            return true;
        }
        int feature = tree.feature().get(node).asInt();
        int right = tree.right().get(node).asInt();
        int n = tree.size();
        if (feature < 0 || feature >= width || left < 0 || left >= n || right < 0 || right >= n) {
            return false;
        }
        nodes[3 * at + 1] = (feature << 1) | (tree.defaultLeft().get(node).asInt() != 0 ? 1 : 0);
        if (!place(left, tree, nodes, free, end, width)) {
            return false;
        }
        nodes[3 * at + 2] = free[0];
        return place(right, tree, nodes, free, end, width);
    }

    /** The row's probability of class 1; the row as the model was trained on it, NaN for missing. */
    double predict(double[] x) {
        return sigmoid(margin(x));
    }

    /**
     * The base margin plus every tree's leaf for the row: what the sigmoid turns into a probability. Four trees are
     * walked at once and their leaves added in tree order: the shipped bundle's six models for one run in 22 µs
     * instead of 24 (StageModelBenchmarks.boostedTreesEveryStage).
     */
    float margin(double[] x) {
        if (x.length != width) {
            throw new IllegalArgumentException("row of width " + x.length + ", the model reads " + width);
        }
        float margin = baseMargin;
        int t = 0;
        for (; t + 4 <= roots.length; t += 4) { // four walks at once: their loads and compares overlap
            int a = roots[t];
            int b = roots[t + 1];
            int c = roots[t + 2];
            int d = roots[t + 3];
            while ((nodes[3 * a + 1] & nodes[3 * b + 1] & nodes[3 * c + 1] & nodes[3 * d + 1]) >= 0) {
                a = step(a, x);
                b = step(b, x);
                c = step(c, x);
                d = step(d, x);
            }
            margin += Float.intBitsToFloat(nodes[3 * a]);
            margin += Float.intBitsToFloat(nodes[3 * b]);
            margin += Float.intBitsToFloat(nodes[3 * c]);
            margin += Float.intBitsToFloat(nodes[3 * d]);
        }
        for (; t < roots.length; t++) {
            int node = roots[t];
            while (nodes[3 * node + 1] >= 0) {
                node = step(node, x);
            }
            margin += Float.intBitsToFloat(nodes[3 * node]);
        }
        return margin;
    }

    /** The child of {@code node} that {@code x} goes to; a leaf stays where it is. */
    private int step(int node, double[] x) {
        int meta = nodes[3 * node + 1];
        if (meta < 0) {
            return node;
        }
        double v = x[meta >>> 1];
        boolean goLeft = Double.isNaN(v) ? (meta & 1) != 0 : (float) v < Float.intBitsToFloat(nodes[3 * node]);
        return goLeft ? node + 1 : nodes[3 * node + 2];
    }

    int trees() {
        return roots.length;
    }

    /** XGBoost's logistic {@code ProbToMargin}, in float. */
    static float probabilityToMargin(float p) {
        return (float) -Math.log(1.0f / p - 1.0f);
    }

    /** XGBoost's float sigmoid ({@code common::Sigmoid}): its clamp keeps {@code exp} finite. */
    static float sigmoid(float margin) {
        float e = (float) Math.exp(Math.min(-margin, 88.7f));
        return 1.0f / (e + 1.0f + 1e-16f);
    }
}

package io.raglog.score;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The packed walk of {@link ExtraTrees#predict} against a plain walk of the trees' own arrays, to the bit. */
class ExtraTreesPackingTest {

    private static final int WIDTH = 12;

    @Test
    void shouldPredictTheSameBitsAsWalkingTheTreesArrays() {
        SplittableRandom random = new SplittableRandom(27);
        for (int forest = 0; forest < 50; forest++) {
            List<ExtraTrees.Tree> trees = new ArrayList<>();
            int size = 1 + random.nextInt(40);
            for (int t = 0; t < size; t++) {
                trees.add(RandomTree.grow(random, WIDTH, random.nextInt(12)));
            }
            ExtraTrees packed = new ExtraTrees(trees);
            for (int row = 0; row < 200; row++) {
                double[] x = RandomTree.row(random, WIDTH);
                assertEquals(Double.doubleToRawLongBits(referencePredict(trees, x)),
                        Double.doubleToRawLongBits(packed.predict(x)), "forest " + forest + ", row " + row);
            }
        }
    }

    @Test
    void shouldPredictAForestOfSingleLeaves() {
        ExtraTrees.Tree leaf = new ExtraTrees.Tree(new int[] {-1}, new double[] {0}, new int[] {-1}, new int[] {-1},
                new double[] {0.25});
        ExtraTrees.Tree other = new ExtraTrees.Tree(new int[] {-1}, new double[] {0}, new int[] {-1}, new int[] {-1},
                new double[] {0.75});

        assertEquals(0.5, new ExtraTrees(List.of(leaf, other)).predict(new double[0]));
    }

    @Test
    void shouldRefuseAFeatureBeyondWhatANodeHolds() {
        ExtraTrees.Tree wide = new ExtraTrees.Tree(new int[] {70_000, -1, -1}, new double[] {0.5, 0, 0},
                new int[] {1, -1, -1}, new int[] {2, -1, -1}, new double[] {0, 0.2, 0.9});

        assertThrows(IllegalArgumentException.class, () -> new ExtraTrees(List.of(wide)));
    }

    /** The trees walked as their arrays say, the leaves added in tree order: what the packing must reproduce. */
    private static double referencePredict(List<ExtraTrees.Tree> trees, double[] x) {
        double sum = 0;
        for (ExtraTrees.Tree tree : trees) {
            int node = 0;
            while (tree.feature()[node] >= 0) {
                node = x[tree.feature()[node]] < tree.threshold()[node] ? tree.left()[node] : tree.right()[node];
            }
            sum += tree.value()[node];
        }
        return sum / trees.size();
    }

    /**
     * Random trees in breadth-first node order (not the pre-order the packing lays out), with thresholds on a coarse
     * grid that rows also hit (ties go right), and leaf values from a few frequencies and arbitrary doubles.
     */
    private static final class RandomTree {

        private final List<int[]> links = new ArrayList<>(); // feature, left, right
        private final List<double[]> numbers = new ArrayList<>(); // threshold, value

        static ExtraTrees.Tree grow(SplittableRandom random, int width, int maxDepth) {
            RandomTree tree = new RandomTree();
            List<int[]> open = new ArrayList<>(); // node, depth
            open.add(new int[] {tree.add(), 0});
            for (int i = 0; i < open.size(); i++) {
                int node = open.get(i)[0];
                int depth = open.get(i)[1];
                if (depth >= maxDepth || random.nextInt(5) == 0) {
                    tree.numbers.get(node)[1] = random.nextBoolean() ? random.nextInt(5) / 4.0 : random.nextDouble();
                    continue;
                }
                int left = tree.add();
                int right = tree.add();
                tree.links.set(node, new int[] {random.nextInt(width), left, right});
                tree.numbers.get(node)[0] = grid(random);
                open.add(new int[] {left, depth + 1});
                open.add(new int[] {right, depth + 1});
            }
            int n = tree.links.size();
            int[] feature = new int[n];
            int[] left = new int[n];
            int[] right = new int[n];
            double[] threshold = new double[n];
            double[] value = new double[n];
            for (int i = 0; i < n; i++) {
                feature[i] = tree.links.get(i)[0];
                left[i] = tree.links.get(i)[1];
                right[i] = tree.links.get(i)[2];
                threshold[i] = tree.numbers.get(i)[0];
                value[i] = tree.numbers.get(i)[1];
            }
            return new ExtraTrees.Tree(feature, threshold, left, right, value);
        }

        private int add() {
            links.add(new int[] {-1, -1, -1});
            numbers.add(new double[2]);
            return links.size() - 1;
        }

        static double[] row(SplittableRandom random, int width) {
            double[] x = new double[width];
            for (int f = 0; f < width; f++) {
                x[f] = grid(random);
            }
            return x;
        }

        private static double grid(SplittableRandom random) {
            return random.nextInt(21) / 10.0 - 1.0;
        }
    }
}

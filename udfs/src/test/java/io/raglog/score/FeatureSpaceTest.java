package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.checks.FeatureValues;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeatureSpaceTest {

    @Test
    void shouldReadTheSameRowFromFeatureValuesAsFromTheMapOfTheirEntries() {
        List<String> names = FeatureList.names();
        double[] values = new double[names.size()];
        BitSet missing = new BitSet();
        double[] odd = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE};
        for (int i = 0; i < values.length; i++) {
            values[i] = i < odd.length ? odd[i] : i / 7.0 - 3;
            missing.set(i, i >= odd.length && i % 4 == 0);
        }
        FeatureValues packed = FeatureValues.ofCurrentList(values, missing);
        Map<String, Double> map = new LinkedHashMap<>(packed);

        // a bundle's list in another order, with a feature this list does not have
        List<String> bundle = new ArrayList<>(names);
        Collections.reverse(bundle);
        bundle.add(3, "some.feature_of_another_list");
        FeatureSpace space = new FeatureSpace(FeatureList.VERSION, bundle);

        double[] fromPacked = space.row(packed);
        double[] fromMap = space.row(map);
        assertThat(fromPacked).hasSameSizeAs(fromMap);
        for (int i = 0; i < fromMap.length; i++) {
            assertThat(Double.doubleToRawLongBits(fromPacked[i])).as(bundle.get(i))
                    .isEqualTo(Double.doubleToRawLongBits(fromMap[i]));
        }
        assertThat(fromMap[3]).isNaN();
        assertThat(space.row(packed)[bundle.indexOf(names.get(3))]).isEqualTo(-0.0);
    }
}

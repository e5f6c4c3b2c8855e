package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Json;
import org.junit.jupiter.api.Test;

/** A logistic regression reads a value beyond what it was fitted on as the nearest end of that range. */
class LogisticRegressionTest {

    private static final LogisticRegression FITTED = new LogisticRegression(new double[] {0.002, 0.5},
            new double[] {0.001, 0.25}, new double[] {1.0, -0.5}, -2.0, new double[] {0.001, 0.0},
            new double[] {0.004, 1.0});

    @Test
    void shouldReadAValueBeyondTheFittedRangeAsTheRangesNearestEnd() {
        double atTheEdge = FITTED.predict(new double[] {0.004, 0.5});

        // 19 standard deviations out, as a stack's signature was on a pipeline never trained on
        assertThat(FITTED.predict(new double[] {0.021, 0.5})).isEqualTo(atTheEdge);
        assertThat(FITTED.predict(new double[] {-3.0, 0.5})).isEqualTo(FITTED.predict(new double[] {0.001, 0.5}));
        assertThat(FITTED.predict(new double[] {0.003, 0.75}))
                .as("inside the range, the line").isEqualTo(LogisticRegression.sigmoid(-2.0 + 1.0 - 0.5));
    }

    @Test
    void shouldReadABundlesModelFromBeforeTheRangeWasKeptWithoutClamping() {
        LogisticRegression old = Json.read("{\"mean\":[0.0],\"scale\":[1.0],\"weights\":[2.0],\"bias\":-1.0}",
                LogisticRegression.class);

        assertThat(old.low()).isNull();
        assertThat(old.predict(new double[] {5.0})).isEqualTo(LogisticRegression.sigmoid(9.0));
    }

    @Test
    void shouldKeepTheRangeThroughTheBundlesJson() {
        LogisticRegression read = Json.read(Json.write(FITTED), LogisticRegression.class);

        assertThat(read.low()).containsExactly(0.001, 0.0);
        assertThat(read.high()).containsExactly(0.004, 1.0);
        assertThat(read.predict(new double[] {0.021, 0.5})).isEqualTo(FITTED.predict(new double[] {0.021, 0.5}));
    }
}

package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;
import static io.raglog.checks.RunBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class VectorChecksTest {

    private static MiniLmEmbedder model;
    private static VectorChecks checks;
    private final List<Finding> findings = new ArrayList<>();

    @BeforeAll
    static void load() {
        model = new MiniLmEmbedder();
        checks = new VectorChecks(new CachedEmbedder(model, 1000));
    }

    @AfterAll
    static void close() {
        model.close();
    }

    private FeatureVector check(Run run) {
        FeatureVector v = new FeatureVector();
        checks.apply(run, v, findings);
        return v;
    }

    @Test
    void shouldFindTheAnsweringPassageMostSimilarAndRankedFirst() {
        FeatureVector v = check(healthy().build());
        assertThat(v.get(RETRIEVE_MOST_SIMILAR_RANK)).isEqualTo(1.0);
        assertThat(v.get(RETRIEVE_TOP_SIM)).isGreaterThan(v.get(RETRIEVE_MEAN_SIM));
        assertThat(v.get(RERANK_CUT_MOST_SIMILAR)).isZero();
        assertThat(v.get(RERANK_TOP_SIM_GAP)).isZero();
        assertThat(v.get(REWRITE_SIM_QUESTION)).isGreaterThan(0.7);
        assertThat(v.get(GENERATE_ANSWER_CONTEXT_SIM)).isGreaterThan(0.7);
        assertThat(findings).isEmpty();
    }

    @Test
    void shouldSeeWhereTheMostSimilarPassageRankedInRetrieval() {
        FeatureVector v = check(healthy().retrieved(WEATHER, REVENUE_2022, CASH_2023).build());
        assertThat(v.get(RETRIEVE_MOST_SIMILAR_RANK)).isEqualTo(3.0);
    }

    @Test
    void shouldNoticeTheRerankerCutTheMostSimilarPassage() {
        FeatureVector v = check(healthy().reranked(WEATHER, REVENUE_2022).build());
        assertThat(v.get(RERANK_CUT_MOST_SIMILAR)).isEqualTo(1.0);
        assertThat(v.get(RERANK_TOP_SIM_GAP)).isGreaterThan(0.1);
        assertThat(v.get(RERANK_SIM_CORRELATION)).as("weather ranked above revenue: order disagrees").isEqualTo(-1.0);
        assertThat(findings).extracting(Finding::text).anySatisfy(t -> assertThat(t)
                .contains("most similar to the question (doc-7#2) was input #1", "kept 2"));
    }

    @Test
    void shouldScoreADriftingRewriteBelowAFaithfulOne() {
        double faithful = check(healthy().build()).get(REWRITE_SIM_QUESTION);
        double drifting = check(healthy().rewrites("Lisbon weather forecast spring").build()).get(REWRITE_SIM_QUESTION);
        assertThat(drifting).isLessThan(faithful - 0.3);
    }

    @Test
    void shouldCompareAPrefixedQueryWithoutItsModelsInstruction() {
        FeatureVector plain = check(healthy().build());
        FeatureVector prefixed = check(healthy()
                .embedded("Represent this sentence for searching relevant passages: Acme Corp operating cash flow 2023")
                .build());
        assertThat(prefixed.get(EMBED_SIM_SOURCE)).isEqualTo(plain.get(EMBED_SIM_SOURCE));
        assertThat(prefixed.get(EMBED_SIM_QUESTION)).isEqualTo(plain.get(EMBED_SIM_QUESTION));
    }

    @Test
    void shouldLeaveAbsentStagesMissing() {
        FeatureVector v = check(healthy().noRerank().noRewrite().build());
        assertThat(v.get(RERANK_SIM_CORRELATION)).isNull();
        assertThat(v.get(REWRITE_SIM_QUESTION)).isNull();
        assertThat(v.get(EMBED_SIM_QUESTION)).isNotNull();
    }
    @Test
    void shouldCountAWordPutInPlaceOfAQuestionWordButNotAnotherFormOfIt() {
        FeatureVector variant = check(healthy().question("When was the Grand Canal built?")
                .rewrites("Grand Canal construction").build());
        assertThat(variant.get(REWRITE_SUBSTITUTED)).isZero();
        FeatureVector opposite = check(healthy().question("Where did the Grand Canal start?")
                .rewrites("Grand Canal end").build());
        assertThat(opposite.get(REWRITE_SUBSTITUTED)).isEqualTo(1.0);
        assertThat(findings).extracting(Finding::text).contains("the rewrite says 'end' where the question said 'start'");
    }
}

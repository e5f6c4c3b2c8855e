package io.raglog.schemas;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.List;

/**
 * One stage of a verdict.
 *
 * @param present false when the run had no such stage: it is not scored, probability and threshold are null
 * @param probability the ensemble's fault probability (weights 1/3 logistic regression, 1/2 gradient-boosted trees,
 *     1/6 extra-trees)
 * @param threshold the stage's threshold from the model bundle; flagged by the models when probability &ge; threshold
 * @param flagged the final decision, after the reassignment rule (which may clear retrieval or flag the reranker
 *     whatever their probabilities)
 * @param evidence short sentences a person can act on, drawn from the checks; empty when the stage is not flagged
 * @param repairHint what to try first, in the spirit of a repair card; null when the stage is not flagged
 * @param models the three models' own probabilities, so the ensemble's arithmetic can be checked; null when absent
 */
public record StageVerdict(
        boolean present,
        Double probability,
        Double threshold,
        boolean flagged,
        List<String> evidence,
        String repairHint,
        ModelProbabilities models) {

    public static StageVerdict absent() {
        return new StageVerdict(false, null, null, false, List.of(), null, null);
    }

    /** The ensemble's members for one stage, each a probability in [0, 1]. */
    @JsonSerialize(using = ModelProbabilities.AsJsonObject.class)
    public record ModelProbabilities(double logisticRegression, double gradientBoostedTrees, double extraTrees) {

        /**
         * The object Jackson's bean serializer writes for these, with the same names in the same order, without
         * boxing each double on its way through a reflected accessor: JMH {@code VerdictOutputBenchmarks
         * .writeVerdictRecords} ({@code -prof gc}) allocates 10,523-10,539 B a verdict, not 10,925.
         * {@code VerdictSchemaTest} holds the bytes to the bean serializer's.
         */
        static final class AsJsonObject extends StdSerializer<ModelProbabilities> {
            private static final long serialVersionUID = 1L;

            AsJsonObject() {
                super(ModelProbabilities.class);
            }

            @Override
            public void serialize(ModelProbabilities p, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                gen.writeStartObject(p);
                gen.writeNumberField("logistic_regression", p.logisticRegression());
                gen.writeNumberField("gradient_boosted_trees", p.gradientBoostedTrees());
                gen.writeNumberField("extra_trees", p.extraTrees());
                gen.writeEndObject();
            }
        }
    }
}

package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.RunBuilder;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.util.EnumSet;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ScoringInputTest {

    @Test
    void shouldTakeStagePresenceAndTheAnswerFromTheAssembledRun() {
        Run run = RunBuilder.healthy().noRewrite().noRerank().answer("It was $4.1 billion.").build();
        ScoringInput input = ScoringInput.of(run, FixedBundles.features("run-1", 0.5, null));
        assertThat(input.present()).containsExactlyInAnyOrder(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        assertThat(input.answer()).isEqualTo("It was $4.1 billion.");
        assertThat(ScoringInput.of(RunBuilder.healthy().noGenerate().build(), input.features()).answer()).isNull();
    }

    @Test
    void shouldCrossFlinkOperatorsAsTheirJson() throws Exception {
        ScoringInput input = TestBundles.scoringInputs(3, 41).get(2);
        assertThat(roundTrip(ScoringInput.class, input)).isEqualTo(input);
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5))) {
            ScoringInput fixed = new ScoringInput(FixedBundles.features("run-j", 1.0, null),
                    EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE), "x");
            Verdict verdict = new Scorer(bundle).score(fixed, Instant.parse("2026-11-29T10:00:00Z"));
            assertThat(roundTrip(Verdict.class, verdict)).isEqualTo(verdict);
        }
    }

    private static <T> T roundTrip(Class<T> type, T value) throws Exception {
        TypeSerializer<T> serializer = JacksonTypeInfo.of(type).createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(512);
        serializer.serialize(value, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}

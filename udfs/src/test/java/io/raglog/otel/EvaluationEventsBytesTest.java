package io.raglog.otel;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.ThresholdsUsed;
import io.raglog.schemas.TraceLink;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link EvaluationEvents} writes the same bytes as before issue #27 reused its pieces
 * ({@link EvaluationEventsBeforeIssue27}), over hand-built verdicts of every shape: flagged and sound stages, absent
 * ones, evidence or none, probabilities and thresholds or none, repair hints, traces with some or no spans, the bundle's
 * thresholds or a pipeline override's, missing ids. {@code SimulatedEvaluationEventsBytesTest} (job) does the same over
 * the simulator's scored runs. Both also hold {@link EvaluationEventsWriter}'s bytes to the message's.
 */
class EvaluationEventsBytesTest {

    private static final HexFormat HEX = HexFormat.of();
    /** Thresholds that repeat, as a bundle's do run after run; 0.0 and -0.0 are equal doubles, not equal bits. */
    private static final double[] REPEATED_THRESHOLDS = {0.4, 0.5, 0.0, -0.0, Double.NaN};

    @Test
    void shouldWriteTheSameBytesAsBeforeForVerdictsOfEveryShape() {
        SplittableRandom random = new SplittableRandom(27);
        for (int i = 0; i < 5_000; i++) {
            Verdict verdict = verdict(random);
            assertSameBytes(verdict);
        }
    }

    @Test
    void shouldWriteTheSameBytesAsBeforeWhenTheRepeatedValuesOutgrowTheirCache() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 3 * RepeatedValues.MOST; i++) {
            Verdict v = verdict(random);
            assertSameBytes(new Verdict(v.schema(), v.runId(), "pipeline-" + i, v.question(), v.answer(), v.stages(),
                    v.flaggedStages(), v.reassigned(), v.knowledgeGap(), v.llm(), "bundle-" + i, v.scoredAt(),
                    v.trace(), new ThresholdsUsed("pipeline-" + i + "/v" + i, "source-" + i, Map.of())));
        }
    }

    /** The message's bytes are the reference's, and the direct writer's are the message's. */
    static void assertSameBytes(Verdict verdict) {
        byte[] message = EvaluationEvents.of(verdict).toByteArray();
        assertThat(message).as("%s", verdict).isEqualTo(EvaluationEventsBeforeIssue27.of(verdict).toByteArray());
        assertThat(EvaluationEventsWriter.toByteArray(verdict)).as("direct: %s", verdict).isEqualTo(message);
    }

    static Verdict verdict(SplittableRandom random) {
        StageVerdict[] stages = new StageVerdict[Stage.values().length];
        List<Stage> flagged = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            stages[stage.ordinal()] = random.nextInt(5) == 0 ? StageVerdict.absent() : stage(random);
            if (stages[stage.ordinal()].flagged()) {
                flagged.add(stage);
            }
        }
        TraceLink trace = null;
        if (random.nextBoolean()) {
            Map<String, String> spans = new LinkedHashMap<>();
            for (Stage stage : Stage.values()) {
                if (random.nextInt(3) > 0) {
                    spans.put(stage.id(), hex(random, 8));
                }
            }
            trace = new TraceLink(random.nextInt(10) == 0 ? null : hex(random, 16), spans);
        }
        ThresholdsUsed thresholds = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> ThresholdsUsed.bundle("bundle-" + random.nextInt(3));
            default -> new ThresholdsUsed("support-assistant/v" + random.nextInt(4), "reviews",
                    Map.of("retrieve", 0.62));
        };
        Instant scoredAt = random.nextInt(10) == 0 ? null
                : Instant.ofEpochSecond(1_796_000_000L + random.nextInt(1_000_000), random.nextInt(1_000_000_000));
        return new Verdict(Verdict.SCHEMA_V4, random.nextInt(20) == 0 ? null : "run-" + random.nextInt(1000),
                random.nextInt(20) == 0 ? null : "pipeline-" + random.nextInt(3), "a question?", "an answer.",
                new VerdictStages(stages[0], stages[1], stages[2], stages[3], stages[4], stages[5]),
                List.copyOf(flagged), false, KnowledgeGap.undecided(),
                new LlmUsage(0, 0, 0, null, false, List.of(), "none"),
                random.nextInt(10) == 0 ? null : "bundle-" + random.nextInt(3), scoredAt, trace, thresholds);
    }

    private static StageVerdict stage(SplittableRandom random) {
        boolean flagged = random.nextBoolean();
        Double probability = random.nextInt(10) == 0 ? null : probability(random);
        Double threshold = random.nextInt(10) == 0 ? null
                : random.nextBoolean() ? REPEATED_THRESHOLDS[random.nextInt(REPEATED_THRESHOLDS.length)]
                : probability(random);
        List<String> evidence = switch (random.nextInt(3)) {
            case 0 -> List.of();
            case 1 -> List.of("no passage answers the question");
            default -> List.of("the top passage is about 2022", "cleared: ünïcode évidence " + random.nextInt(100));
        };
        String hint = random.nextInt(3) == 0 ? "raise top_k to " + random.nextInt(20) : null;
        return new StageVerdict(true, probability, threshold, flagged, evidence, hint,
                new StageVerdict.ModelProbabilities(random.nextDouble(), random.nextDouble(), random.nextDouble()));
    }

    private static double probability(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(1001) / 1000.0; // on a thousandth
            case 1 -> (2 * random.nextInt(1000) + 1) / 2000.0; // halfway between two
            case 2 -> random.nextDouble() * 1e-3;
            default -> random.nextDouble();
        };
    }

    private static String hex(SplittableRandom random, int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HEX.formatHex(b);
    }
}

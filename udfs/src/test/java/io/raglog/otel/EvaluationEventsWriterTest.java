package io.raglog.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
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
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EvaluationEventsWriter} writes exactly {@code EvaluationEvents.of(verdict).toByteArray()}, over random
 * verdicts meant to reach every branch the builder has and the edges of the wire format: no stages at all, absent
 * stages, NaN (signalling and quiet), -0.0, 0.0 and infinite probabilities and thresholds, thresholds that repeat
 * (the message reuses the last one per stage), empty and null strings, non-ASCII and unpaired surrogates, strings long
 * enough for two- and three-byte lengths, traces with no id, an empty id, upper-case hex, spans missing or empty,
 * times at, before and long after the epoch. {@code EvaluationEventsBytesTest} and
 * {@code SimulatedEvaluationEventsBytesTest} (job) hold it to the same bytes over their verdicts too.
 */
class EvaluationEventsWriterTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final double[] ODD_DOUBLES = {0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff0000000000001L),
        Double.longBitsToDouble(0xfff8000000000123L), Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, 1.0, 0.5, 0.4};
    private static final String[] ODD_STRINGS = {"", "a", "ünïcode évidence", "日本語の証拠", "emoji \uD83D\uDE00 pair",
        "unpaired high \uD800", "\uDC00 unpaired low", "\uDBFF\uDBFF", "nul \u0000 inside", "x".repeat(200),
        "é".repeat(9_000)};

    /**
     * Protobuf logs a warning with a stack trace for every string with an unpaired surrogate it writes (both ways of
     * writing go through it); thousands of them made a 2 GB test report. Held here: JUL keeps its loggers weakly.
     */
    private static final Logger PROTOBUF_LOG = Logger.getLogger(CodedOutputStream.class.getName());
    private static Level protobufLogLevel;

    @BeforeAll
    static void quietProtobufsUnpairedSurrogateWarnings() {
        protobufLogLevel = PROTOBUF_LOG.getLevel();
        PROTOBUF_LOG.setLevel(Level.OFF);
    }

    @AfterAll
    static void restoreProtobufsLog() {
        PROTOBUF_LOG.setLevel(protobufLogLevel);
    }

    @Test
    void shouldWriteTheMessagesBytesForRandomVerdictsOfEveryShape() {
        SplittableRandom random = new SplittableRandom(2027);
        for (int i = 0; i < 20_000; i++) {
            assertSameBytes(verdict(random));
        }
    }

    @Test
    void shouldWriteTheMessagesBytesForTheBytesTestsVerdicts() {
        SplittableRandom random = new SplittableRandom(31);
        for (int i = 0; i < 5_000; i++) {
            assertSameBytes(EvaluationEventsBytesTest.verdict(random));
        }
    }

    @Test
    void shouldWriteAVerdictWithoutStagesAsARequestWithoutRecords() throws Exception {
        Verdict verdict = verdict(null, null, null, null, null, null);

        byte[] bytes = assertSameBytes(verdict);

        assertThat(ExportLogsServiceRequest.parseFrom(bytes).getResourceLogs(0).getScopeLogs(0).getLogRecordsCount())
                .isZero();
    }

    @Test
    void shouldRefuseWhatTheMessageRefuses() {
        StageVerdict sound = new StageVerdict(true, 0.1, 0.5, false, List.of(), null, null);
        VerdictStages stages = new VerdictStages(sound, sound, sound, sound, sound, sound);
        for (TraceLink bad : List.of(new TraceLink("abc", Map.of()), new TraceLink("zz", Map.of()),
                new TraceLink("00", Map.of("embed", "0g")), new TraceLink("00", Map.of("embed", "123")))) {
            Verdict verdict = verdict(stages, "run", "p", Instant.EPOCH, bad, null);
            assertThatThrownBy(() -> EvaluationEvents.of(verdict)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> EvaluationEventsWriter.toByteArray(verdict))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static byte[] assertSameBytes(Verdict verdict) {
        byte[] direct = EvaluationEventsWriter.toByteArray(verdict);
        assertThat(direct).as("%s", verdict).isEqualTo(EvaluationEvents.of(verdict).toByteArray());
        return direct;
    }

    private static Verdict verdict(SplittableRandom random) {
        VerdictStages stages = null;
        if (random.nextInt(50) > 0) {
            StageVerdict[] s = new StageVerdict[Stage.values().length];
            for (int i = 0; i < s.length; i++) {
                s[i] = random.nextInt(4) == 0 ? StageVerdict.absent() : stage(random);
            }
            stages = new VerdictStages(s[0], s[1], s[2], s[3], s[4], s[5]);
        }
        TraceLink trace = random.nextInt(3) == 0 ? null : trace(random);
        ThresholdsUsed thresholds = switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> ThresholdsUsed.bundle(string(random));
            case 2 -> new ThresholdsUsed(null, null, Map.of());
            default -> new ThresholdsUsed("support-assistant/v" + random.nextInt(4), string(random), Map.of());
        };
        Instant scoredAt = switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> Instant.EPOCH; // 0 ns: the message leaves both times out
            case 2 -> Instant.ofEpochSecond(-random.nextInt(1_000_000), random.nextInt(1_000_000_000));
            case 3 -> Instant.ofEpochSecond(0, 1 + random.nextInt(1000));
            default -> Instant.ofEpochSecond(1_796_000_000L + random.nextInt(1_000_000), random.nextInt(1_000_000_000));
        };
        return new Verdict(Verdict.SCHEMA_V4, maybe(random), maybe(random), "q?", "a.", stages, List.of(), false,
                KnowledgeGap.undecided(), new LlmUsage(0, 0, 0, null, false, List.of(), "none"), maybe(random),
                scoredAt, trace, thresholds);
    }

    private static Verdict verdict(VerdictStages stages, String runId, String pipeline, Instant scoredAt,
            TraceLink trace, ThresholdsUsed thresholds) {
        return new Verdict(Verdict.SCHEMA_V4, runId, pipeline, "q?", "a.", stages, List.of(), false,
                KnowledgeGap.undecided(), new LlmUsage(0, 0, 0, null, false, List.of(), "none"), "bundle", scoredAt,
                trace, thresholds);
    }

    private static StageVerdict stage(SplittableRandom random) {
        List<String> evidence = switch (random.nextInt(5)) {
            case 0 -> List.of();
            case 1 -> null;
            case 2 -> List.of(string(random));
            case 3 -> Arrays.asList(string(random), null, string(random));
            default -> List.of(string(random), string(random), string(random));
        };
        return new StageVerdict(true, number(random), number(random), random.nextBoolean(), evidence,
                random.nextInt(3) == 0 ? string(random) : null, null);
    }

    private static TraceLink trace(SplittableRandom random) {
        String traceId = switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> hex(random, 16).toUpperCase(Locale.ROOT);
            default -> hex(random, 16);
        };
        Map<String, String> spans = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            switch (random.nextInt(5)) {
                case 0 -> { }
                case 1 -> spans.put(stage.id(), "");
                case 2 -> spans.put(stage.id(), hex(random, 1 + random.nextInt(80)));
                default -> spans.put(stage.id(), hex(random, 8));
            }
        }
        return new TraceLink(traceId, spans);
    }

    private static Double number(SplittableRandom random) {
        return switch (random.nextInt(5)) {
            case 0 -> null;
            case 1 -> ODD_DOUBLES[random.nextInt(ODD_DOUBLES.length)];
            case 2 -> random.nextInt(1001) / 1000.0;
            default -> random.nextDouble();
        };
    }

    private static String maybe(SplittableRandom random) {
        return random.nextInt(8) == 0 ? null : string(random);
    }

    private static String string(SplittableRandom random) {
        if (random.nextInt(4) == 0) {
            return ODD_STRINGS[random.nextInt(ODD_STRINGS.length)];
        }
        List<String> parts = new ArrayList<>();
        for (int i = random.nextInt(4); i >= 0; i--) {
            parts.add(switch (random.nextInt(6)) {
                case 0 -> "ß€";
                case 1 -> String.valueOf((char) (0xD800 + random.nextInt(0x800))); // a lone surrogate
                case 2 -> new String(Character.toChars(0x10000 + random.nextInt(0x100000)));
                default -> "word" + random.nextInt(100);
            });
        }
        return String.join(" ", parts);
    }

    private static String hex(SplittableRandom random, int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HEX.formatHex(b);
    }
}

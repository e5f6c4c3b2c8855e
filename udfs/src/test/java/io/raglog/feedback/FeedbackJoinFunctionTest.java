package io.raglog.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import io.raglog.schemas.FeedbackScore;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeedback;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

class FeedbackJoinFunctionTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final FeedbackSettings SETTINGS = new FeedbackSettings(Duration.ofHours(24), Duration.ofHours(24),
            Duration.ofMinutes(10));
    private static final String PIPELINE = "support-bot";

    private static KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback, RunFeedback> harness(
            OperatorSubtaskState restoreFrom) throws Exception {
        var h = new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new FeedbackJoinFunction(SETTINGS)), Verdict::pipeline,
                Feedback::pipeline, Types.STRING);
        h.setup();
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    private static String runIdOfHint(String hint) {
        return RunIds.of(PIPELINE, hint, null);
    }

    static Verdict verdict(String runId, String question, boolean flagged) {
        StageVerdict sound = new StageVerdict(true, 0.1, 0.5, false, List.of(), null, null);
        StageVerdict bad = new StageVerdict(true, 0.9, 0.5, true, List.of("the answer states 1912, no passage does"),
                "Ground the answer in the passages.", null);
        return new Verdict(Verdict.SCHEMA_V3, runId, PIPELINE, question, "An answer.",
                new VerdictStages(StageVerdict.absent(), sound, sound, StageVerdict.absent(), flagged ? bad : sound),
                flagged ? List.of(Stage.GENERATE) : List.of(), false, KnowledgeGap.undecided(),
                new LlmUsage(0, 0, 0, null, false, List.of(), "offline-judge/v1"), "bundle", T0);
    }

    static Feedback thumbs(String id, String hint, boolean up, Instant at) {
        return new Feedback(Feedback.SCHEMA_V1, id, PIPELINE, FeedbackKind.THUMBS, up ? "up" : "down", null, null,
                null, at, null, hint, null, null, "widget");
    }

    static Feedback byQuestion(String id, String question, Instant at) {
        return new Feedback(Feedback.SCHEMA_V1, id, PIPELINE, FeedbackKind.SCORE, null, new FeedbackScore(1, 1, 5),
                null, null, at, null, null, null, question, "widget");
    }

    private static void verdictAt(KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback, RunFeedback> h,
            Verdict v, Instant at) throws Exception {
        h.processElement1(v, at.toEpochMilli());
    }

    private static void feedback(KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback, RunFeedback> h,
            Feedback f) throws Exception {
        h.processElement2(f, f.at().toEpochMilli());
    }

    private static void watermark(KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback, RunFeedback> h,
            Instant at) throws Exception {
        h.processBothWatermarks(new Watermark(at.toEpochMilli()));
    }

    private static List<RunFeedback> joined(KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback,
            RunFeedback> h) {
        return h.extractOutputValues();
    }

    private static List<Verdict> side(KeyedTwoInputStreamOperatorTestHarness<String, Verdict, Feedback,
            RunFeedback> h, OutputTag<Verdict> tag) {
        ConcurrentLinkedQueue<StreamRecord<Verdict>> out = h.getSideOutput(tag);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
    }

    @Test
    void shouldJoinFeedbackThatComesAfterItsVerdictAndQueueADislikedPassedRun() throws Exception {
        try (var h = harness(null)) {
            verdictAt(h, verdict(runIdOfHint("req-1"), "When was it built?", false), T0);
            feedback(h, thumbs("f1", "req-1", false, T0.plusSeconds(30)));

            assertThat(joined(h)).singleElement().satisfies(r -> {
                assertThat(r.outcome()).isEqualTo(RunFeedback.JOINED);
                assertThat(r.runId()).isEqualTo(runIdOfHint("req-1"));
                assertThat(r.matchedBy()).isEqualTo("run_hint");
                assertThat(r.negative()).isTrue();
                assertThat(r.raglogQueued()).isFalse();
                assertThat(r.queueReasons()).containsExactly(Verdict.USER_FEEDBACK);
            });
            assertThat(side(h, FeedbackJoinFunction.DISLIKED_BUT_PASSED)).singleElement().satisfies(v -> {
                assertThat(v.schema()).isEqualTo(Verdict.SCHEMA_V4);
                assertThat(v.queueReasons()).containsExactly(Verdict.USER_FEEDBACK);
                assertThat(v.userFeedback().negative()).isEqualTo(1);
            });
            assertThat(side(h, FeedbackJoinFunction.QUEUE_DOCUMENTS)).as("not queued until users disliked it")
                    .singleElement().satisfies(v -> assertThat(v.disliked()).isTrue());
        }
    }

    @Test
    void shouldHoldFeedbackThatComesFirstUntilItsVerdict() throws Exception {
        try (var h = harness(null)) {
            feedback(h, thumbs("f1", "req-2", true, T0.minusSeconds(5)));
            assertThat(joined(h)).isEmpty();

            verdictAt(h, verdict(runIdOfHint("req-2"), "Who built it?", false), T0);

            assertThat(joined(h)).singleElement().satisfies(r -> assertThat(r.outcome()).isEqualTo("joined"));
            assertThat(side(h, FeedbackJoinFunction.DISLIKED_BUT_PASSED)).as("a thumbs-up queues nothing").isEmpty();
            assertThat(side(h, FeedbackJoinFunction.QUEUE_DOCUMENTS)).as("the run is not in the queue").isEmpty();
        }
    }

    @Test
    void shouldFindAnOtlpRunByItsTraceId() throws Exception {
        String trace = "5b8efff798038103d269b633813fc60c";
        try (var h = harness(null)) {
            verdictAt(h, verdict(RunIds.of(PIPELINE, trace, null), "Where?", true), T0);
            feedback(h, new Feedback(Feedback.SCHEMA_V1, "f1", PIPELINE, FeedbackKind.CORRECTION, null, null, null,
                    "Paris, not Lyon.", T0.plusSeconds(60), null, null, trace, null, null));

            assertThat(joined(h)).singleElement().satisfies(r -> {
                assertThat(r.matchedBy()).isEqualTo("trace_id");
                assertThat(r.raglogQueued()).isTrue();
                assertThat(r.queueReasons()).containsExactly("generate", Verdict.USER_FEEDBACK);
            });
            assertThat(side(h, FeedbackJoinFunction.DISLIKED_BUT_PASSED)).as("raglog had queued it already").isEmpty();
            assertThat(side(h, FeedbackJoinFunction.QUEUE_DOCUMENTS)).as("as scored, then with its feedback")
                    .extracting(v -> v.userFeedback() == null ? null : v.userFeedback().correction())
                    .containsExactly(null, "Paris, not Lyon.");
        }
    }

    @Test
    void shouldLetFeedbackWithoutAVerdictLeaveAsNoVerdictAfterItsWaitAndLeaveNoState() throws Exception {
        try (var h = harness(null)) {
            feedback(h, thumbs("f1", "never-sampled", false, T0));
            watermark(h, T0.plus(Duration.ofHours(24)).minusMillis(1));
            assertThat(joined(h)).isEmpty();

            watermark(h, T0.plus(Duration.ofHours(24)));

            assertThat(joined(h)).singleElement().satisfies(r -> {
                assertThat(r.outcome()).isEqualTo(RunFeedback.NO_VERDICT);
                assertThat(r.runId()).isNull();
                assertThat(r.queueReasons()).isEmpty();
            });
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void shouldJoinFeedbackUpToTheWaitLateAndDropTheVerdictAfter() throws Exception {
        try (var h = harness(null)) {
            verdictAt(h, verdict(runIdOfHint("req-3"), "How tall?", false), T0);
            watermark(h, T0.plus(Duration.ofHours(23)));
            feedback(h, thumbs("late", "req-3", false, T0.plus(Duration.ofHours(23)).plusSeconds(59 * 60)));
            assertThat(joined(h)).singleElement().satisfies(r -> assertThat(r.outcome()).isEqualTo("joined"));

            watermark(h, T0.plus(Duration.ofHours(24)));
            feedback(h, thumbs("too-late", "req-3", false, T0.plus(Duration.ofHours(24)).plusSeconds(1)));
            watermark(h, T0.plus(Duration.ofHours(49)));

            assertThat(joined(h)).extracting(RunFeedback::outcome).containsExactly("joined", "no_verdict");
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void shouldJoinTheSameFeedbackRecordOnceAndQueueARunOnce() throws Exception {
        try (var h = harness(null)) {
            feedback(h, thumbs("f1", "req-4", false, T0.minusSeconds(1)));
            feedback(h, thumbs("f1", "req-4", false, T0.minusSeconds(1)));
            verdictAt(h, verdict(runIdOfHint("req-4"), "Why?", false), T0);
            feedback(h, thumbs("f1", "req-4", false, T0.minusSeconds(1)));
            feedback(h, thumbs("f2", "req-4", false, T0.plusSeconds(3)));

            assertThat(joined(h)).extracting(r -> r.feedback().feedbackId()).containsExactly("f1", "f2");
            assertThat(side(h, FeedbackJoinFunction.DISLIKED_BUT_PASSED)).hasSize(1);
            assertThat(side(h, FeedbackJoinFunction.QUEUE_DOCUMENTS)).extracting(v -> v.userFeedback().negative())
                    .as("one document with the feedback that came first, one per feedback after").containsExactly(1, 2);
        }
    }

    @Test
    void shouldMatchQuestionFeedbackToTheNearestRunOnceTheWindowHasPassed() throws Exception {
        try (var h = harness(null)) {
            verdictAt(h, verdict("run-early", "When was the tower built?", false), T0);
            feedback(h, byQuestion("f1", "  when was the TOWER built ", T0.plusSeconds(300)));
            verdictAt(h, verdict("run-near", "When was the tower built?", false), T0.plusSeconds(280));
            verdictAt(h, verdict("run-other", "Who built the tower?", false), T0.plusSeconds(301));
            watermark(h, T0.plusSeconds(300 + 599));
            assertThat(joined(h)).as("a nearer run may still come").isEmpty();

            watermark(h, T0.plusSeconds(900));

            assertThat(joined(h)).singleElement().satisfies(r -> {
                assertThat(r.runId()).isEqualTo("run-near");
                assertThat(r.matchedBy()).isEqualTo("question");
                assertThat(r.negative()).as("1 of 1..5").isTrue();
            });
        }
    }

    @Test
    void shouldStillJoinQuestionFeedbackToARunHeldBackUpstreamPastItsSearch() throws Exception {
        try (var h = harness(null)) {
            feedback(h, byQuestion("f1", "Who built the tower?", T0));
            watermark(h, T0.plusSeconds(600));
            assertThat(joined(h)).as("no run asked it yet").isEmpty();

            verdictAt(h, verdict("run-late", "Who built the tower?", false), T0.minusSeconds(30));
            verdictAt(h, verdict("run-too-far", "Who built the tower?", false), T0.minusSeconds(601));

            assertThat(joined(h)).singleElement().satisfies(r -> assertThat(r.runId()).isEqualTo("run-late"));
            watermark(h, T0.plus(Duration.ofHours(48)));
            assertThat(joined(h)).hasSize(1);
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void shouldKeepBothSidesAcrossASnapshotAndJoinEachFeedbackOnceAfterRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            verdictAt(h, verdict(runIdOfHint("held"), "Q1?", false), T0);
            feedback(h, thumbs("joined-before", "held", true, T0.plusSeconds(1)));
            feedback(h, thumbs("waiting", "scored-later", false, T0.plusSeconds(2)));
            watermark(h, T0.plusSeconds(2));
            assertThat(joined(h)).hasSize(1);
            snapshot = h.snapshot(1L, 1L);
        }
        try (var h = harness(snapshot)) {
            feedback(h, thumbs("joined-before", "held", true, T0.plusSeconds(1))); // replayed: a producer retry
            feedback(h, thumbs("after-restore", "held", false, T0.plusSeconds(3)));
            verdictAt(h, verdict(runIdOfHint("scored-later"), "Q2?", false), T0.plusSeconds(4));
            watermark(h, T0.plus(Duration.ofHours(30)));

            assertThat(joined(h)).extracting(r -> r.feedback().feedbackId())
                    .containsExactlyInAnyOrder("after-restore", "waiting");
            assertThat(side(h, FeedbackJoinFunction.DISLIKED_BUT_PASSED)).extracting(Verdict::runId)
                    .containsExactlyInAnyOrder(runIdOfHint("held"), runIdOfHint("scored-later"));
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }
}

package io.raglog.reask;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The keyed function: re-asks within a session or a pipeline's unsessioned runs, state gone once the window ends. */
class ReAskFunctionTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    /** Lexical only: the test needs no embedding model. */
    private static final ReAskSettings SETTINGS = ReAskSettings.defaults().withEmbeddingWeight(0);

    private KeyedOneInputStreamOperatorTestHarness<String, AskedQuestion, ReAsk> harness;

    @BeforeEach
    void open() throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new ReAskFunction(SETTINGS)), ReAskFunction.KEY, Types.STRING);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private void ask(String session, String runId, String question, int secondsAfterT0) throws Exception {
        Instant at = T0.plusSeconds(secondsAfterT0);
        harness.processElement(new AskedQuestion("support-bot", session, runId, question, at), at.toEpochMilli());
    }

    private List<ReAsk> reAsks() {
        return harness.extractOutputValues();
    }

    @Test
    void shouldMarkTheEarlierRunWhenASessionAsksItsQuestionAgain() throws Exception {
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        ask("s-1", "run-2", "I mean, what year was the first steam engine constructed in England", 40);

        assertThat(reAsks()).singleElement().satisfies(r -> {
            assertThat(r.runId()).isEqualTo("run-2");
            assertThat(r.earlierRunId()).isEqualTo("run-1");
            assertThat(r.session()).isEqualTo("s-1");
            assertThat(r.secondsBetween()).isEqualTo(40);
            assertThat(r.similarity()).isBetween(SETTINGS.threshold(), 1.0);
        });
    }

    @Test
    void shouldFindTheSamePairWhenTheReAskingRunClosesFirst() throws Exception {
        // a backlog: the re-asking run reaches the key before the run it re-asks, and a follow-up comes between
        ask("s-1", "run-2", "I mean, what year was the first steam engine constructed in England", 40);
        ask("s-1", "run-3", "Who improved the steam engine in Scotland?", 90);
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);

        assertThat(reAsks()).extracting(ReAsk::runId, ReAsk::earlierRunId, ReAsk::secondsBetween)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("run-2", "run-1", 40L));
    }

    @Test
    void shouldLeaveAFollowUpOnTheSameTopicAndOtherSessionsAlone() throws Exception {
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        ask("s-1", "run-2", "Who improved the steam engine in Scotland?", 30);
        ask("s-2", "run-3", "When was the first steam engine built in England?", 35);

        assertThat(reAsks()).as("a follow-up is no re-ask; another session's question is not this one's")
                .isEmpty();
    }

    @Test
    void shouldMatchRunsWithoutASessionWithinTheShorterWindowOnly() throws Exception {
        ask(null, "run-1", "When was the first steam engine built in England?", 0);
        ask(null, "run-2", "when was the first steam engine built in england exactly", 60);
        ask(null, "run-3", "Who wrote the Magna Carta?", 100);
        ask(null, "run-4", "who wrote the magna carta again", 100 + (int) SETTINGS.anonymousWindow().toSeconds() + 5);

        assertThat(reAsks()).extracting(ReAsk::runId, ReAsk::earlierRunId, ReAsk::session)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("run-2", "run-1", null));
    }

    @Test
    void shouldForgetASessionOnceItsWindowHasPassed() throws Exception {
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        ask(null, "run-2", "Who wrote the Magna Carta?", 10);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        assertThat(harness.numEventTimeTimers()).as("one timer per key").isEqualTo(2);

        harness.processWatermark(T0.plus(SETTINGS.sessionWindow()).plusSeconds(11).toEpochMilli());

        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        ask("s-1", "run-3", "when was the first steam engine built in england", 
                (int) SETTINGS.sessionWindow().toSeconds() + 20);
        assertThat(reAsks()).as("a question after the window re-asks nothing").isEmpty();
    }

    @Test
    void shouldKeepAtMostTheConfiguredNumberOfQuestionsPerSession() {
        RecentQuestions recent = RecentQuestions.empty();
        for (int i = 0; i < 20; i++) {
            recent = recent.with(new RecentQuestions.Remembered("run-" + i, "question " + i, T0.plusSeconds(i)),
                    SETTINGS.maxRemembered(), Duration.ofMinutes(10));
        }
        assertThat(recent.questions()).hasSize(SETTINGS.maxRemembered());
        assertThat(recent.questions().get(0).runId()).isEqualTo("run-12");
        RecentQuestions late = recent.with(new RecentQuestions.Remembered("run-late", "late", T0.plusSeconds(15)),
                100, Duration.ofMinutes(10));
        assertThat(late.questions()).extracting(RecentQuestions.Remembered::runId)
                .containsSubsequence("run-15", "run-late", "run-16");
    }

    @Test
    void shouldRememberASessionAcrossARestore() throws Exception {
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        org.apache.flink.runtime.checkpoint.OperatorSubtaskState snapshot = harness.snapshot(1, 1);
        harness.close();

        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new ReAskFunction(SETTINGS)), ReAskFunction.KEY, Types.STRING);
        harness.initializeState(snapshot);
        harness.open();
        ask("s-1", "run-2", "when was the first steam engine built in england again", 30);

        assertThat(reAsks()).extracting(ReAsk::earlierRunId).containsExactly("run-1");
        assertThat(harness.numEventTimeTimers()).as("the restored timer, moved to the newest question").isEqualTo(1);
    }

    @Test
    void shouldNotTakeARunDeliveredTwiceForAReAskOfItself() throws Exception {
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        ask("s-1", "run-1", "When was the first steam engine built in England?", 0);
        assertThat(reAsks()).isEmpty();
    }
}

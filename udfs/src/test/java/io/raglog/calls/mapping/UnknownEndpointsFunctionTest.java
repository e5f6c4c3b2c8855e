package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.LlmTestServer;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The keyed function on Flink's operator test harness, against the local LLM server. */
class UnknownEndpointsFunctionTest {

    private static final TypeInformation<EndpointKey> KEY = TypeInformation.of(EndpointKey.class);

    private LlmTestServer server;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = LlmTestServer.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        server.close();
    }

    private LlmSettings llm() {
        return FieldMappingProposerTest.settings(server, "openai");
    }

    private static MappingSettings mapping(String... overrides) {
        Map<String, String> env = new HashMap<>(Map.of(MappingSettings.RETRY_BACKOFF_MS, "1000"));
        for (int i = 0; i < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return MappingSettings.fromEnv(env);
    }

    /** A harness whose counters the test can read; the caller initialises it (empty or from a snapshot). */
    private KeyedOneInputStreamOperatorTestHarness<EndpointKey, CallEvent, ClassifiedCall> harness(LlmSettings llm,
            MappingSettings settings, CapturedMetrics metrics) throws Exception {
        MockEnvironment env = new MockEnvironmentBuilder().setTaskName("unknown endpoints")
                .setManagedMemorySize(3 * 1024 * 1024).setMaxParallelism(128).setParallelism(1).setSubtaskIndex(0)
                .setMetricGroup(metrics.task()).build();
        open.add(env);
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new UnknownEndpointsFunction(llm, settings)), EndpointKey::of, KEY, env);
        open.add(harness);
        return harness;
    }

    private KeyedOneInputStreamOperatorTestHarness<EndpointKey, CallEvent, ClassifiedCall> opened(LlmSettings llm,
            MappingSettings settings, CapturedMetrics metrics) throws Exception {
        var harness = harness(llm, settings, metrics);
        harness.open();
        return harness;
    }

    private static void send(KeyedOneInputStreamOperatorTestHarness<EndpointKey, CallEvent, ClassifiedCall> harness,
            CallEvent call) throws Exception {
        harness.processElement(call, call.endedAt().toEpochMilli());
    }

    /** Answers with a mapping that points at the wrong field until {@code wrongFirst} requests were answered. */
    private void answerWrongThenRight(int wrongFirst) {
        AtomicInteger n = new AtomicInteger();
        server.answers(r -> n.getAndIncrement() < wrongFirst
                ? InHouseCalls.searchMappingJson().replace("doc.body", "doc.text") : InHouseCalls.searchMappingJson());
    }

    @Test
    void shouldAskOnceForManyCallsOfOneEndpointAndKeepOnlyTheMapping() throws Exception {
        server.answers(r -> InHouseCalls.searchMappingJson());
        var harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new UnknownEndpointsFunction(llm(), MappingSettings.DEFAULTS), EndpointKey::of, KEY);
        open.add(harness);

        for (int kb = 1; kb <= 40; kb++) {
            send(harness, InHouseCalls.acmeSearch(kb));
        }

        assertThat(server.requests()).isEqualTo(1);
        List<ClassifiedCall> out = harness.extractOutputValues();
        assertThat(out).hasSize(40).allSatisfy(c -> {
            assertThat(c.stage()).isEqualTo(Stage.RETRIEVE);
            assertThat(((RetrieveDetail) c.detail()).passages()).hasSize(3);
        });
        assertThat(harness.numKeyedStateEntries()).as("the mapping, no buffer, no status").isEqualTo(1);
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void shouldReuseTheKeptMappingAfterARestoreWithoutAskingAgain() throws Exception {
        server.answers(r -> InHouseCalls.searchMappingJson());
        var first = opened(llm(), MappingSettings.DEFAULTS, new CapturedMetrics());
        send(first, InHouseCalls.acmeSearch(1));
        send(first, InHouseCalls.acmeSearch(2));
        OperatorSubtaskState snapshot = first.snapshot(1L, 1L);
        first.close();

        // Were it asked again, the model would now fail: the restored mapping must be all it needs.
        server.always(r -> true, new LlmTestServer.Status(503, null, null));
        CapturedMetrics metrics = new CapturedMetrics();
        var restored = harness(llm(), MappingSettings.DEFAULTS, metrics);
        restored.setup();
        restored.initializeState(snapshot);
        restored.open();
        for (int kb = 3; kb <= 12; kb++) {
            send(restored, InHouseCalls.acmeSearch(kb));
        }

        assertThat(server.requests()).isEqualTo(1);
        assertThat(restored.extractOutputValues()).hasSize(10).allSatisfy(c -> assertThat(c.stage())
                .isEqualTo(Stage.RETRIEVE));
        assertThat(metrics.mapping("calls_mapped")).isEqualTo(10);
        assertThat(metrics.mapping("proposals_accepted")).isZero();
        assertThat(metrics.mapping("llm_calls")).isZero();

        // A deployment switched to the offline judge still applies what it kept: nothing is asked, nothing lost.
        var offline = harness(LlmSettings.defaults(), MappingSettings.DEFAULTS, new CapturedMetrics());
        offline.setup();
        offline.initializeState(snapshot);
        offline.open();
        send(offline, InHouseCalls.acmeSearch(13));
        assertThat(offline.extractOutputValues()).singleElement()
                .satisfies(c -> assertThat(c.stage()).isEqualTo(Stage.RETRIEVE));
    }

    @Test
    void shouldCountCallsUnclassifiedAndAskNothingWithTheOfflineJudge() throws Exception {
        CapturedMetrics metrics = new CapturedMetrics();
        var harness = opened(LlmSettings.defaults(), MappingSettings.DEFAULTS, metrics);
        send(harness, InHouseCalls.acmeSearch(1));
        send(harness, InHouseCalls.embed("Acme cash flow 2023"));
        send(harness, InHouseCalls.acmeSearch(2));

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(metrics.mapping("calls_unclassified")).isEqualTo(3);
        assertThat(server.requests()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void shouldHoldCallsWhileARejectedProposalWaitsAndEmitThemOnceTheRetryIsAccepted() throws Exception {
        answerWrongThenRight(1);
        CapturedMetrics metrics = new CapturedMetrics();
        var harness = opened(llm(), mapping(), metrics);
        harness.setProcessingTime(0);
        CallEvent first = InHouseCalls.acmeSearch(1);
        CallEvent second = InHouseCalls.acmeSearch(2);
        CallEvent failed = InHouseCalls.failed(InHouseCalls.acmeSearch(3), 503);
        send(harness, first);
        send(harness, second);
        send(harness, failed);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(server.requests()).as("one proposal per endpoint, not one per call").isEqualTo(1);
        assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);

        harness.setProcessingTime(999);
        assertThat(server.requests()).as("the back-off is respected").isEqualTo(1);
        harness.setProcessingTime(1000);

        assertThat(server.requests()).isEqualTo(2);
        assertThat(server.received().get(1).user())
                .contains("\"previous_rejection\":\"retrieve.result_text (doc.text)");
        assertThat(harness.extractOutputValues()).extracting(c -> c.event().eventId())
                .containsExactly(first.eventId(), second.eventId(), failed.eventId());
        assertThat(metrics.mapping("proposals_rejected")).isEqualTo(1);
        assertThat(metrics.mapping("proposals_accepted")).isEqualTo(1);
        assertThat(metrics.mapping("calls_mapped")).isEqualTo(3);
        assertThat(harness.numKeyedStateEntries()).as("the mapping only").isEqualTo(1);
    }

    @Test
    void shouldGiveUpAfterTheLastAttemptAndCountItsCallsWithoutAskingAgain() throws Exception {
        server.answers(r -> "I am not sure what this endpoint does.");
        CapturedMetrics metrics = new CapturedMetrics();
        var harness = opened(llm(), mapping(MappingSettings.MAX_ATTEMPTS, "2"), metrics);
        harness.setProcessingTime(0);
        send(harness, InHouseCalls.acmeSearch(1));
        send(harness, InHouseCalls.acmeSearch(2));
        harness.setProcessingTime(1000);

        assertThat(server.requests()).isEqualTo(2);
        assertThat(metrics.mapping("endpoints_given_up")).isEqualTo(1);
        assertThat(metrics.mapping("calls_unclassified")).as("the buffered calls, released").isEqualTo(2);

        send(harness, InHouseCalls.acmeSearch(3));
        harness.setProcessingTime(1_000_000);
        assertThat(server.requests()).isEqualTo(2);
        assertThat(metrics.mapping("calls_unclassified")).isEqualTo(3);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).as("the given-up status only").isEqualTo(1);
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void shouldWaitForASuccessfulCallBeforeAskingAndMapTheFailedOnesToo() throws Exception {
        server.answers(r -> InHouseCalls.searchMappingJson());
        var harness = opened(llm(), MappingSettings.DEFAULTS, new CapturedMetrics());
        send(harness, InHouseCalls.failed(InHouseCalls.acmeSearch(1), 503));
        assertThat(server.requests()).as("a failed call cannot show the replies").isZero();
        send(harness, InHouseCalls.acmeSearch(2));

        assertThat(server.requests()).isEqualTo(1);
        List<ClassifiedCall> out = harness.extractOutputValues();
        assertThat(out).hasSize(2);
        assertThat(((RetrieveDetail) out.get(0).detail()).passages()).isEmpty();
        assertThat(((RetrieveDetail) out.get(1).detail()).passages()).hasSize(3);
    }

    @Test
    void shouldBoundTheBufferOfAnEndpointWithoutAMapping() throws Exception {
        server.answers(r -> "{}");
        CapturedMetrics metrics = new CapturedMetrics();
        var harness = opened(llm(), mapping(MappingSettings.MAX_BUFFERED_CALLS, "2"), metrics);
        for (int kb = 1; kb <= 5; kb++) {
            send(harness, InHouseCalls.acmeSearch(kb));
        }
        assertThat(server.requests()).isEqualTo(1);
        assertThat(metrics.mapping("calls_unclassified")).isEqualTo(3);
    }

    @Test
    void shouldAskOncePerEndpointAndCountCallsThatNoLongerFit() throws Exception {
        server.answers(r -> r.user().contains("/embed") ? "{\"stage\": \"embed\", \"embed\": {\"texts\":"
                + " \"request.inputs\", \"vectors\": \"response.data.vectors\"}}" : InHouseCalls.searchMappingJson());
        CapturedMetrics metrics = new CapturedMetrics();
        var harness = opened(llm(), MappingSettings.DEFAULTS, metrics);
        send(harness, InHouseCalls.acmeSearch(1));
        send(harness, InHouseCalls.embed("Acme cash flow 2023"));
        send(harness, InHouseCalls.embed("Acme revenue 2022"));
        send(harness, InHouseCalls.withResponse(InHouseCalls.acmeSearch(2),
                Json.MAPPER.createObjectNode().put("status", "reindexing")));

        assertThat(server.requests()).isEqualTo(2);
        assertThat(harness.extractOutputValues()).extracting(ClassifiedCall::stage)
                .containsExactly(Stage.RETRIEVE, Stage.EMBED, Stage.EMBED);
        assertThat(metrics.mapping("calls_not_fitting")).isEqualTo(1);
        assertThat(metrics.mapping("proposals_accepted")).isEqualTo(2);
    }
}

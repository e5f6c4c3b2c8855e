package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.BoundedRun;
import io.raglog.cli.chaos.ChaosReport;
import io.raglog.cli.chaos.Delivery;
import io.raglog.cli.chaos.Kafka;
import io.raglog.cli.chaos.Rig;
import io.raglog.cli.chaos.Traffic;
import io.raglog.job.JobSettings;
import io.raglog.llm.LlmCheck;
import io.raglog.llm.LlmTestServer;
import io.raglog.llm.LlmTestServer.Hang;
import io.raglog.llm.LlmTestServer.NotJson;
import io.raglog.llm.LlmTestServer.Status;
import io.raglog.llm.LlmTestServer.Truncated;
import io.raglog.llm.LlmTestServer.WrongShape;
import io.raglog.schemas.Label;
import io.raglog.schemas.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LLM endpoint misbehaves on 30 % of calls (429 with Retry-After, 500, 503, hanging past the timeout, truncated
 * and non-JSON bodies, a confidence of 250), and one check of some runs fails on every attempt. Every run still gets
 * its verdict; exactly the runs whose check could not be answered are marked degraded; no check is tried more than
 * its retries allow; the cost each verdict reports adds up to the tokens the endpoint reported.
 */
@ExtendWith(SharedServices.class)
class LlmMisbehaviourTest {

    private static final String API_KEY = "sk-raglog-test-llm-misbehaviour-5e1f";
    private static final int RUNS = 30;
    private static final int DOOMED_EVERY = 5;
    /** What the test server reports per parsed reply. */
    private static final int INPUT_TOKENS = 100;
    private static final int OUTPUT_TOKENS = 20;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static LlmTestServer server;
    private static FaultPlan plan;
    private static Traffic traffic;
    private static Set<String> doomedQuestions;
    private static ChaosReport report;
    private static List<Verdict> verdicts;

    @BeforeAll
    static void runTheJobAgainstAMisbehavingEndpoint(@InjectMiniCluster MiniCluster cluster) throws Exception {
        traffic = Traffic.simulate(RUNS, 29);
        List<Label> labels = traffic.labels();
        doomedQuestions = IntStream.range(0, labels.size()).filter(i -> i % DOOMED_EVERY == 0)
                .mapToObj(i -> labels.get(i).question()).collect(Collectors.toSet());
        server = LlmTestServer.start();
        plan = new FaultPlan(List.of(
                new Status(429, "1", null),
                new Status(500, null, null),
                new Status(503, null, "<html>Service Unavailable</html>"),
                new Hang(Duration.ofMillis(LlmEndpoints.TIMEOUT_MS + 1_000)),
                new Truncated(),
                new NotJson(),
                new WrongShape()), 3, 10, LlmEndpoints.RETRIES,
                r -> r.check() == LlmCheck.SUPPORT && doomedQuestions.stream().anyMatch(q -> r.user().contains(q)),
                new Status(502, null, null));
        plan.installOn(server);

        Rig rig = new Rig(cluster, 1, SharedServices.kafka(), null, SharedServices.work());
        JobSettings settings = JobSettings.defaults().withChecks(LlmEndpoints.openAi(server, API_KEY));
        BoundedRun.Outcome outcome = BoundedRun.run(rig, new BoundedRun.Settings("llm misbehaviour", traffic,
                List.of(), settings, 2, false, Duration.ofMinutes(5)), 0, "30 % of LLM calls", BoundedRun.During.NOTHING);
        verdicts = new Kafka(SharedServices.kafka().bootstrapServers()).read(outcome.topics().verdicts(), Verdict.class);
        Map<Integer, Integer> tally = plan.tally();
        int faulted = tally.entrySet().stream().filter(e -> e.getKey() != FaultPlan.NONE).mapToInt(Map.Entry::getValue)
                .sum();
        report = new ChaosReport(outcome.report().scenario(), RUNS, faulted,
                faulted + " of " + server.requests() + " LLM calls faulted", outcome.report().failovers(),
                outcome.report().deliveries(), outcome.report().took(), outcome.report().notes());
        System.out.print(report.describe());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldGiveEveryRunItsVerdictAndFlaggedOnesToTheQueue() {
        for (String output : new String[] {Audit.RUNS, Audit.VERDICTS, Audit.FAULTS, Audit.DEAD_LETTERS}) {
            Delivery d = report.delivery(output);
            assertThat(d.exact()).as(d.toString()).isTrue();
        }
        assertThat(report.faultsInjected()).as("faults injected").isGreaterThanOrEqualTo(server.requests() / 4);
    }

    @Test
    void shouldMarkExactlyTheRunsWhoseCheckWentUnansweredAsDegraded() {
        assertThat(verdicts).allSatisfy(v -> {
            boolean doomed = doomedQuestions.contains(v.question());
            assertThat(v.llm().degraded()).as("degraded %s", v.runId()).isEqualTo(doomed);
            assertThat(v.llm().degradedChecks()).as("degraded checks of %s", v.runId())
                    .isEqualTo(doomed ? List.of(LlmCheck.SUPPORT.id()) : List.of());
            assertThat(v.llm().judge()).isEqualTo("openai:gpt-test-mini");
        });
        assertThat(verdicts).filteredOn(v -> v.llm().degraded()).hasSizeGreaterThanOrEqualTo(RUNS / DOOMED_EVERY);
    }

    @Test
    void shouldNeverTryACheckMoreOftenThanItsRetriesAllow() {
        Map<String, Long> runsByQuestion = traffic.labels().stream()
                .collect(Collectors.groupingBy(Label::question, Collectors.counting()));
        Map<String, Long> attempts = server.received().stream()
                .collect(Collectors.groupingBy(r -> r.system() + "\n" + r.user(), Collectors.counting()));
        assertThat(attempts).allSatisfy((prompt, n) -> {
            // two runs asking the same question may send the same prompt
            long runs = runsByQuestion.entrySet().stream().filter(q -> prompt.contains(q.getKey()))
                    .mapToLong(Map.Entry::getValue).max().orElse(1);
            assertThat(n).isLessThanOrEqualTo((LlmEndpoints.RETRIES + 1) * runs);
        });
        assertThat(server.received().stream().filter(r -> r.check() == LlmCheck.SUPPORT
                && doomedQuestions.stream().anyMatch(q -> r.user().contains(q))).count())
                .as("a doomed check is tried once and retried %d times, then given up", LlmEndpoints.RETRIES)
                .isEqualTo((long) verdicts.stream().filter(v -> doomedQuestions.contains(v.question())).count()
                        * (LlmEndpoints.RETRIES + 1));
        assertThat(verdicts.stream().mapToInt(v -> v.llm().calls()).sum()).as("calls the verdicts account for")
                .isEqualTo(server.requests());
    }

    @Test
    void shouldAccountForExactlyTheTokensTheEndpointReported() {
        int wrongShape = plan.faults().indexOf(plan.faults().stream().filter(f -> f instanceof WrongShape).findFirst()
                .orElseThrow());
        // a reply is billed when its envelope was read: normal answers and the well-formed wrong ones
        long billed = plan.decisions().stream().filter(f -> f == FaultPlan.NONE || f == wrongShape).count();
        long input = verdicts.stream().mapToLong(v -> v.llm().inputTokens()).sum();
        long output = verdicts.stream().mapToLong(v -> v.llm().outputTokens()).sum();
        assertThat(input).isEqualTo(billed * INPUT_TOKENS);
        assertThat(output).isEqualTo(billed * OUTPUT_TOKENS);
        assertThat(verdicts).allSatisfy(v -> assertThat(v.llm().costUsd()).isCloseTo(
                (v.llm().inputTokens() * LlmEndpoints.PRICE_INPUT_PER_MTOK
                        + v.llm().outputTokens() * LlmEndpoints.PRICE_OUTPUT_PER_MTOK) / 1_000_000.0,
                org.assertj.core.data.Offset.offset(1e-12)));
    }
}

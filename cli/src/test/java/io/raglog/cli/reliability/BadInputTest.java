package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.BadInput;
import io.raglog.cli.chaos.BoundedRun;
import io.raglog.cli.chaos.ChaosReport;
import io.raglog.cli.chaos.Delivery;
import io.raglog.cli.chaos.Rig;
import io.raglog.cli.chaos.Traffic;
import io.raglog.ingest.RawMessage;
import io.raglog.job.JobSettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input never fails the job: spoiled messages (cut short, wrong types, missing fields, not UTF-8, text for
 * objects, huge, deeply nested, NUL bytes) each become a dead letter with a reason, or, when only their body is odd,
 * are read or dead-lettered, never thrown; the good runs around them come out as if they were not there.
 */
@ExtendWith(SharedServices.class)
class BadInputTest {

    /** What a Kafka topic takes by default (message.max.bytes): a dead letter must fit in it. */
    private static final int TOPIC_MAX_BYTES = 1_048_588;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @Test
    void shouldDeadLetterTenThousandSpoiledMessagesWithAReasonAndNeverThrow() {
        InProcessIngest ingest = new InProcessIngest();
        Map<BadInput.Kind, int[]> tally = new EnumMap<>(BadInput.Kind.class); // {messages, dead-lettered}
        List<String> problems = new ArrayList<>();
        BadInput.spoil(Traffic.simulate(40, 41), 10_000, 43).forEach(s -> {
            InProcessIngest.Outcome outcome;
            try {
                outcome = ingest.ingest(new RawMessage(s.message().otlp() ? "fuzz.otlp" : "fuzz.calls", 0, 0,
                        s.message().value()), s.message().otlp());
            } catch (RuntimeException | StackOverflowError e) {
                problems.add(s.how() + " threw " + e);
                return;
            }
            int[] t = tally.computeIfAbsent(s.kind(), k -> new int[2]);
            t[0]++;
            t[1] += outcome.deadLetters().isEmpty() ? 0 : 1;
            if (s.kind().deadLetter() && outcome.deadLetters().isEmpty()) {
                problems.add(s.how() + " was not dead-lettered");
            }
            for (DeadLetter letter : outcome.deadLetters()) {
                if (letter.reason() == null || letter.reason().isBlank()) {
                    problems.add(s.how() + " dead-lettered without a reason");
                }
                int size = Json.writeBytes(letter).length;
                if (size > TOPIC_MAX_BYTES) {
                    problems.add(s.how() + ": its dead letter is " + size + " bytes, more than a topic takes");
                }
            }
        });
        tally.forEach((kind, t) -> System.out.printf("%-18s %5d messages, %5d dead-lettered%n", kind, t[0], t[1]));
        assertThat(problems).isEmpty();
        assertThat(tally.values().stream().mapToInt(t -> t[0]).sum()).isEqualTo(10_000);
        assertThat(tally).containsKeys(BadInput.Kind.values());
    }

    @Test
    void shouldKeepGoodRunsExactWhileHundredsOfSpoiledMessagesGoThroughTheJob(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Rig rig = new Rig(cluster, 1, SharedServices.kafka(), null, SharedServices.work());
        Traffic good = Traffic.simulate(30, 47);
        List<BadInput.Spoiled> spoiled = BadInput.spoil(Traffic.simulate(20, 53), 300, 59).toList();
        // ingestion is what is tried here: runs with an HTTP error are checked (always), the others are not
        JobSettings settings = JobSettings.defaults().withSampling(new SamplingPolicy(0.0, Map.of()));

        BoundedRun.Outcome outcome = BoundedRun.run(rig, new BoundedRun.Settings("bad input", good, spoiled, settings,
                2, false, Duration.ofMinutes(5)), spoiled.size(), spoiled.size() + " spoiled messages",
                BoundedRun.During.NOTHING);
        ChaosReport report = outcome.report();
        System.out.print(report.describe());

        assertThat(outcome.failures()).as("job failures").isEmpty();
        for (String output : new String[] {Audit.RUNS, Audit.VERDICTS, Audit.FAULTS, Audit.DEAD_LETTERS}) {
            Delivery d = report.delivery(output);
            assertThat(d.exact()).as(d.toString()).isTrue();
        }
        assertThat(report.delivery(Audit.DEAD_LETTERS).expected())
                .isGreaterThanOrEqualTo((int) spoiled.stream().filter(s -> s.kind().deadLetter()).count());
    }
}

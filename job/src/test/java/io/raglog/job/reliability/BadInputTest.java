package io.raglog.job.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.ingest.RawMessage;
import io.raglog.job.chaos.BadInput;
import io.raglog.job.chaos.Traffic;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bad input never fails the job: spoiled messages (cut short, wrong types, missing fields, not UTF-8, text for
 * objects, huge, deeply nested, NUL bytes) each become a dead letter with a reason, or, when only their body is odd,
 * are read or dead-lettered, never thrown.
 */
class BadInputTest {

    /** What a Kafka topic takes by default (message.max.bytes): a dead letter must fit in it. */
    private static final int TOPIC_MAX_BYTES = 1_048_588;

    @Test
    void shouldDeadLetterTenThousandSpoiledMessagesWithAReasonAndNeverThrow() {
        List<BadInput.Spoiled> spoiled = BadInput.spoil(Traffic.simulate(40, 41), 10_000, 43);
        InProcessIngest ingest = new InProcessIngest();
        Map<BadInput.Kind, int[]> tally = new EnumMap<>(BadInput.Kind.class); // {messages, dead-lettered}
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < spoiled.size(); i++) {
            BadInput.Spoiled s = spoiled.get(i);
            InProcessIngest.Outcome outcome;
            try {
                outcome = ingest.ingest(new RawMessage(s.message().otlp() ? "fuzz.otlp" : "fuzz.calls", 0, i,
                        s.message().value()), s.message().otlp());
            } catch (RuntimeException | StackOverflowError e) {
                problems.add(s.how() + " threw " + e);
                continue;
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
        }
        tally.forEach((kind, t) -> System.out.printf("%-18s %5d messages, %5d dead-lettered%n", kind, t[0], t[1]));
        assertThat(problems).isEmpty();
        assertThat(tally.values().stream().mapToInt(t -> t[0]).sum()).isEqualTo(10_000);
    }
}

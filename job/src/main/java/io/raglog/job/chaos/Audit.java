package io.raglog.job.chaos;

import io.raglog.job.Topics;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Reads what a job wrote, as its consumers would (Kafka read_committed, Elasticsearch after a refresh), and compares
 * it with the ground truth: every run once in {@code runs}, every checked run once in {@code verdicts}, exactly the
 * flagged verdicts in {@code faults} and in the faults index, and no dead letters unless some were expected.
 */
public final class Audit {

    public static final String RUNS = "runs";
    public static final String VERDICTS = "verdicts";
    public static final String FAULTS = "faults";
    public static final String ES_FAULTS = "elasticsearch faults";
    public static final String DEAD_LETTERS = "dead letters";

    private static final Pattern EVENT_ID = Pattern.compile("\"event_id\"\\s*:\\s*\"([^\"]{1,200})\"");

    private Audit() {}

    /**
     * @param runIds the runs that went in (label run ids)
     * @param es null when the job wrote no Elasticsearch output
     * @param deadLetters the identities ({@link #identity}) of the messages that should be dead letters
     */
    public static List<Delivery> outputs(Kafka kafka, Topics topics, Collection<String> runIds, Elastic es,
            String faultsIndex, Collection<String> deadLetters) {
        List<Delivery> deliveries = new ArrayList<>();
        deliveries.add(Delivery.of(RUNS, runIds, kafka.read(topics.runs(), Run.class).stream().map(Run::runId).toList()));
        List<Verdict> verdicts = kafka.read(topics.verdicts(), Verdict.class);
        deliveries.add(Delivery.of(VERDICTS, runIds, verdicts.stream().map(Verdict::runId).toList()));
        Set<String> flagged = flagged(verdicts);
        deliveries.add(Delivery.of(FAULTS, flagged,
                kafka.read(topics.faults(), Verdict.class).stream().map(Verdict::runId).toList()));
        if (es != null) {
            deliveries.add(Delivery.of(ES_FAULTS, flagged, es.ids(faultsIndex)));
        }
        deliveries.add(Delivery.of(DEAD_LETTERS, deadLetters, deadLetterIds(kafka, topics)));
        return deliveries;
    }

    /** The distinct run ids of the flagged verdicts. */
    public static Set<String> flagged(List<Verdict> verdicts) {
        Set<String> flagged = new LinkedHashSet<>();
        verdicts.stream().filter(Verdict::flagged).forEach(v -> flagged.add(v.runId()));
        return flagged;
    }

    /** The identity of every dead letter in the topic. */
    public static List<String> deadLetterIds(Kafka kafka, Topics topics) {
        return kafka.read(topics.deadLetters(), DeadLetter.class).stream().map(Audit::identity).toList();
    }

    /**
     * A dead letter's identity: the event id its payload names when it names one (the messages a scenario spoils
     * keep theirs), else where its message came from (topic, partition, offset), else its payload.
     */
    public static String identity(DeadLetter d) {
        byte[] payload = d.payload() != null ? d.payload().getBytes(StandardCharsets.UTF_8)
                : d.payloadBase64() != null ? Base64.getDecoder().decode(d.payloadBase64()) : new byte[0];
        if (d.offset() < 0) {
            String eventId = eventId(new String(payload, StandardCharsets.UTF_8));
            return eventId != null ? eventId : d.origin() + "/" + Arrays.hashCode(payload);
        }
        return identity(payload, d.origin(), d.partition(), d.offset());
    }

    /** The identity of a message written to an input topic, as its dead letter will have it. */
    public static String identity(byte[] payload, RecordMetadata landed) {
        return identity(payload, landed.topic(), landed.partition(), landed.offset());
    }

    private static String identity(byte[] payload, String topic, int partition, long offset) {
        String eventId = eventId(new String(payload, StandardCharsets.UTF_8));
        return eventId != null ? eventId : topic + "/" + partition + "/" + offset;
    }

    /** The first {@code "event_id": "..."} in a text, whole JSON or not; null when there is none. */
    public static String eventId(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = EVENT_ID.matcher(text);
        return m.find() ? m.group(1) : null;
    }
}

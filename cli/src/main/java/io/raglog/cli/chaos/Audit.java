package io.raglog.cli.chaos;

import io.raglog.job.Topics;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Run;
import io.raglog.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Reads what a job wrote once it has finished or been cancelled, as its consumers would (Kafka read_committed, after
 * the last commits have landed; Elasticsearch after a refresh), and compares it with the ground truth: every run once
 * in {@code runs}, every checked run once in {@code verdicts}, exactly the flagged verdicts in {@code faults} and in
 * the faults index, and no dead letters unless some were expected.
 */
public final class Audit {

    public static final String RUNS = "runs";
    public static final String VERDICTS = "verdicts";
    public static final String FAULTS = "faults";
    public static final String ES_FAULTS = "elasticsearch faults";
    public static final String DEAD_LETTERS = "dead letters";

    private static final Pattern EVENT_ID = Pattern.compile("\"event_id\"\\s*:\\s*\"([^\"]{1,200})\"");

    private Audit() {}

    /** What should have come out. */
    public record Expected(Collection<String> runIds, SamplingPolicy sampling, Collection<String> deadLetters,
            Collection<String> mayDeadLetter) {

        /** Every run checked, no dead letters. */
        public static Expected everyRun(Collection<String> runIds) {
            return new Expected(runIds, SamplingPolicy.CHECK_EVERYTHING, List.of(), List.of());
        }
    }

    /**
     * Runs of the spoiled messages' own pipelines ({@link BadInput#PIPELINE_PREFIX}) are not part of the ground
     * truth: whatever the job made of them, they are not counted against it.
     *
     * @param es null when the job wrote no Elasticsearch output
     */
    public static List<Delivery> outputs(Kafka kafka, Topics topics, Expected expected, Elastic es,
            String faultsIndex) {
        List<Delivery> deliveries = new ArrayList<>();
        List<Run> runs = kafka.readSettled(topics.runs(), Run.class).stream().filter(r -> counted(r.pipeline()))
                .toList();
        deliveries.add(Delivery.of(RUNS, expected.runIds(), runs.stream().map(Run::runId).toList()));
        // sampling is a pure function of the run: which runs must have a verdict follows from the runs themselves
        Set<String> runIds = new LinkedHashSet<>(expected.runIds());
        List<String> checked = runs.stream().filter(r -> runIds.contains(r.runId()))
                .filter(expected.sampling()::sampled).map(Run::runId).distinct().toList();
        List<Verdict> all = kafka.readSettled(topics.verdicts(), Verdict.class);
        List<Verdict> verdicts = all.stream().filter(v -> counted(v.pipeline())).toList();
        Set<String> uncounted = new HashSet<>(all.stream().filter(v -> !counted(v.pipeline())).map(Verdict::runId)
                .toList());
        deliveries.add(Delivery.of(VERDICTS, checked, verdicts.stream().map(Verdict::runId).toList()));
        Set<String> flagged = flagged(verdicts);
        deliveries.add(Delivery.of(FAULTS, flagged, kafka.readSettled(topics.faults(), Verdict.class).stream()
                .filter(v -> counted(v.pipeline())).map(Verdict::runId).toList()));
        if (es != null) {
            deliveries.add(Delivery.of(ES_FAULTS, flagged, es.ids(faultsIndex).stream()
                    .filter(id -> !uncounted.contains(id)).toList()));
        }
        List<String> letters = deadLetterIds(kafka, topics);
        Set<String> may = new HashSet<>(expected.mayDeadLetter());
        List<String> expectedLetters = new ArrayList<>(expected.deadLetters());
        letters.stream().filter(may::contains).distinct().forEach(expectedLetters::add);
        deliveries.add(Delivery.of(DEAD_LETTERS, expectedLetters, letters));
        return deliveries;
    }

    private static boolean counted(String pipeline) {
        return pipeline == null || !pipeline.startsWith(BadInput.PIPELINE_PREFIX);
    }

    /** The distinct run ids of the flagged verdicts. */
    public static Set<String> flagged(List<Verdict> verdicts) {
        Set<String> flagged = new LinkedHashSet<>();
        verdicts.stream().filter(Verdict::queued).forEach(v -> flagged.add(v.runId()));
        return flagged;
    }

    /** The identity of every dead letter in the topic. */
    public static List<String> deadLetterIds(Kafka kafka, Topics topics) {
        return kafka.readSettled(topics.deadLetters(), DeadLetter.class).stream().map(Audit::identity).toList();
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

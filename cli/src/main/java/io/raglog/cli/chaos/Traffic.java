package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.job.Topics;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.SimulationSink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Simulated pipeline traffic held in memory, so a scenario can change it (credentials in captured headers), cut it in
 * two at an instant (a savepoint taken mid-run) and produce it when it chooses. Records are written the way the proxy
 * and the Collector write them: a call keyed by pipeline with its end as the record timestamp, an OTLP request with
 * its last span's end.
 */
public final class Traffic {

    /** One Kafka record of raglog's input. */
    public record Message(boolean otlp, String key, long timestampMillis, byte[] value) {}

    private final List<Message> messages;
    private final List<Label> labels;
    private final Map<String, Long> callEnds;

    private Traffic(List<Message> messages, List<Label> labels, Map<String, Long> callEnds) {
        this.messages = List.copyOf(messages);
        this.labels = List.copyOf(labels);
        this.callEnds = Map.copyOf(callEnds);
    }

    /** {@code runs} runs over every profile (proxy calls and OTLP traces), with the simulator's default fault rate. */
    public static Traffic simulate(int runs, long seed) {
        return simulate(runs, seed, UnaryOperator.identity());
    }

    /** As {@link #simulate(int, long)}, every proxy call passed through {@code change} before it is kept. */
    public static Traffic simulate(int runs, long seed, UnaryOperator<CallEvent> change) {
        return simulate(SimulatorOptions.of("all", runs, seed), change);
    }

    /**
     * Questions arriving {@code perSecond} on average: slow enough that a job reading forever closes the first runs
     * (event time passes them) while later ones are still arriving, as in production.
     */
    public static SimulatorOptions arriving(int runs, long seed, double perSecond) {
        return new SimulatorOptions("all", runs, seed, SimulatorOptions.DEFAULT_FAULT_RATE, null, perSecond,
                SimulatorOptions.DEFAULT_CLOCK_START, SimulatorOptions.DEFAULT_INDEX_EVERY, null);
    }

    public static Traffic simulate(SimulatorOptions options, UnaryOperator<CallEvent> change) {
        Recorder recorder = new Recorder(change);
        new Simulator(options).run(recorder);
        return new Traffic(recorder.messages, recorder.labels, recorder.callEnds);
    }

    /** A call as a proxy that does not redact would capture it: this header added to its request. */
    public static UnaryOperator<CallEvent> withRequestHeader(String name, String value) {
        return call -> {
            Map<String, String> headers = new LinkedHashMap<>();
            if (call.request().headers() != null) {
                headers.putAll(call.request().headers());
            }
            headers.put(name, value);
            HttpRequest r = call.request();
            return new CallEvent(call.schema(), call.eventId(), call.pipeline(), call.runHint(), call.startedAt(),
                    call.endedAt(), new HttpRequest(r.method(), r.url(), headers, r.body()), call.response(),
                    call.source(), call.session());
        };
    }

    public List<Message> messages() {
        return messages;
    }

    public List<Label> labels() {
        return labels;
    }

    /** The keys of its trace records (their service), which decide the partitions they land in. */
    public List<String> otlpKeys() {
        return messages.stream().filter(Message::otlp).map(Message::key).toList();
    }

    /** Runs the simulator made: the ground truth every scenario counts against. */
    public int runs() {
        return labels.size();
    }

    /** The messages stamped before {@code cut}. */
    public List<Message> before(Instant cut) {
        return messages.stream().filter(m -> m.timestampMillis() < cut.toEpochMilli()).toList();
    }

    /** The messages stamped at or after {@code cut}. */
    public List<Message> from(Instant cut) {
        return messages.stream().filter(m -> m.timestampMillis() >= cut.toEpochMilli()).toList();
    }

    /**
     * Runs open at {@code cut}: begun before it, their generator call (a proxy call) ended at or after it. Their calls
     * are on both sides of the cut, so they complete only if state carries over.
     */
    public List<Label> openAt(Instant cut) {
        long at = cut.toEpochMilli();
        return labels.stream()
                .filter(l -> l.startedAt().toEpochMilli() < at)
                .filter(l -> callEnds.getOrDefault(l.generatorEventId(), Long.MIN_VALUE) >= at)
                .toList();
    }

    /** The instant half the messages are stamped before. */
    public Instant middle() {
        List<Long> stamps = messages.stream().map(Message::timestampMillis).sorted().toList();
        return Instant.ofEpochMilli(stamps.get(stamps.size() / 2));
    }

    /** The latest record timestamp. */
    public Instant end() {
        return Instant.ofEpochMilli(messages.stream().mapToLong(Message::timestampMillis).max().orElse(0));
    }

    /** Writes messages to the input topics, acknowledged before it returns; returns where each landed. */
    public static List<RecordMetadata> produce(Kafka kafka, Topics topics, List<Message> messages) {
        return kafka.produce(records(topics, messages));
    }

    private static List<Kafka.Record> records(Topics topics, List<Message> messages) {
        return messages.stream()
                .map(m -> new Kafka.Record(m.otlp() ? topics.otlp() : topics.calls(), null, m.key(),
                        m.timestampMillis(), m.value()))
                .toList();
    }

    /**
     * Writes messages in the background at the pace their timestamps say (times {@code speed}), as a live pipeline
     * would: event time and the clock advance together, so no partition's records fall behind the job's watermark
     * because another partition's backlog was read first.
     */
    public static Feed feed(Kafka kafka, Topics topics, List<Message> messages, double speed) {
        return new Feed(kafka, topics, messages, speed);
    }

    /** A background writer of messages; see {@link #feed}. */
    public static final class Feed {
        private final Thread thread;
        private volatile int sent;
        private volatile Throwable failure;
        private final int total;

        private Feed(Kafka kafka, Topics topics, List<Message> messages, double speed) {
            List<Message> ordered = messages.stream()
                    .sorted(java.util.Comparator.comparingLong(Message::timestampMillis)).toList();
            total = ordered.size();
            thread = new Thread(() -> {
                try (var producer = kafka.openProducer()) {
                    long first = ordered.isEmpty() ? 0 : ordered.get(0).timestampMillis();
                    long start = System.nanoTime();
                    for (Message m : ordered) {
                        long due = start + (long) ((m.timestampMillis() - first) * 1_000_000L / speed);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                        }
                        Kafka.produce(producer, records(topics, List.of(m)));
                        sent++;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = e;
                } catch (RuntimeException e) {
                    failure = e;
                }
            }, "raglog-chaos-feed");
            thread.setDaemon(true);
            thread.start();
        }

        /** The share of the messages written so far, 0..1. */
        public double progress() {
            return total == 0 ? 1 : sent / (double) total;
        }

        /** Waits until every message is written; rethrows what stopped the writer. */
        public void await(java.time.Duration timeout) throws InterruptedException {
            thread.join(timeout.toMillis());
            if (thread.isAlive()) {
                throw new IllegalStateException("the feed wrote " + sent + " of " + total + " messages in " + timeout);
            }
            if (failure != null) {
                throw new IllegalStateException("the feed failed after " + sent + " messages: " + failure, failure);
            }
        }
    }

    /** Collects what the simulator emits. */
    private static final class Recorder implements SimulationSink {
        final List<Message> messages = new ArrayList<>();
        final List<Label> labels = new ArrayList<>();
        final Map<String, Long> callEnds = new LinkedHashMap<>();
        private final UnaryOperator<CallEvent> change;

        Recorder(UnaryOperator<CallEvent> change) {
            this.change = change;
        }

        @Override
        public void call(CallEvent call) {
            CallEvent changed = change.apply(call);
            long end = changed.endedAt().toEpochMilli();
            callEnds.put(changed.eventId(), end);
            messages.add(new Message(false, changed.pipeline(), end, Json.writeBytes(changed)));
        }

        @Override
        public void traces(ObjectNode request) {
            String service = request.path("resourceSpans").path(0).path("resource").path("attributes").path(0)
                    .path("value").path("stringValue").asText(null);
            long last = 0;
            for (var resourceSpans : request.path("resourceSpans")) {
                for (var scopeSpans : resourceSpans.path("scopeSpans")) {
                    for (var span : scopeSpans.path("spans")) {
                        last = Math.max(last, Long.parseLong(span.path("endTimeUnixNano").asText("0")) / 1_000_000L);
                    }
                }
            }
            messages.add(new Message(true, service, last, Json.writeBytes(request)));
        }

        @Override
        public void label(Label label) {
            labels.add(label);
        }

        @Override
        public void close() {}
    }
}

package io.raglog.cli.chaos;

import io.raglog.cli.chaos.ChaosJob.Waits;
import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.schemas.Label;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The job's neighbours fail under it: Elasticsearch goes down for a while (the sink retries and back-pressures the
 * job; checkpoints wait for it), then the Kafka broker is restarted (sources and transactional sinks lose it; the job
 * fails over until it is back). The job reads forever, as in production, and the traffic keeps arriving throughout, at
 * the pace it happened ({@link Traffic#feed}), so that runs close while others arrive and the outages meet a job at
 * work. Nothing may be lost or repeated in any output.
 */
public final class OutageRideThrough {

    /**
     * @param spoiled messages raglog cannot use, sent before the traffic: each must become one dead letter
     * @param speed how much faster than it happened the traffic is replayed
     * @param es the connection the job writes with (credentials and all); null for the node's own
     */
    public record Settings(Traffic traffic, List<Traffic.Message> spoiled, double speed,
            Duration elasticsearchDown, Duration brokerDown, int parallelism, JobSettings job,
            ElasticsearchConnection es, Duration timeout) {}

    /** What a caller needs beyond the figures: where everything was written. */
    public record Outcome(ChaosReport report, Topics topics, String faultsIndex, String faultRatesIndex,
            List<String> failures) {}

    private OutageRideThrough() {}

    public static Outcome run(Rig rig, Settings s) throws Exception {
        long start = System.nanoTime();
        String name = "outage-" + Long.toHexString(System.nanoTime());
        Topics topics = rig.topics(name);
        Kafka kafka = rig.kafka();
        Traffic traffic = s.traffic();
        List<RecordMetadata> landed = Traffic.produce(kafka, topics, s.spoiled());
        List<String> deadLetters = new ArrayList<>();
        for (int i = 0; i < landed.size(); i++) {
            deadLetters.add(Audit.identity(s.spoiled().get(i).value(), landed.get(i)));
        }

        kafka.produce(Ticks.before(traffic.end(), topics, kafka.partitionCount(topics.otlp()), traffic.otlpKeys(),
                List.of()));
        ElasticsearchConnection es = s.es() != null ? s.es() : rig.elasticsearchConnection();
        Elastic elastic = new Elastic(es);
        String faultsIndex = Rig.faultsIndex(name);
        ChaosJob job = ChaosJob.submit(rig.cluster(), ChaosJob.configuration(rig.work().resolve(name),
                ChaosJob.Recovery.DEFAULT), s.parallelism(), name, null,
                env -> rig.wire(env, topics, name, false, s.job(), es, name));
        Traffic.Feed feed = Traffic.feed(kafka, topics, traffic.messages(), s.speed());
        List<String> notes = new ArrayList<>();

        // the outages begin once runs are going through: the job is at work, not starting
        Waits.until(s.timeout(), "the first runs", () -> kafka.written(topics.runs()) > 0);
        long down = System.nanoTime();
        rig.elasticsearch().stop();
        Waits.pause(s.elasticsearchDown());
        rig.elasticsearch().restart();
        notes.add(String.format("Elasticsearch down %.0f s (stopped, then restarted on its port and data) with %.0f %%"
                + " of the traffic written when it came back", (System.nanoTime() - down) / 1e9,
                feed.progress() * 100));

        down = System.nanoTime();
        double before = feed.progress();
        rig.broker().stopBroker();
        Waits.pause(s.brokerDown());
        rig.broker().startBroker();
        notes.add(String.format("Kafka broker down %.0f s (shut down, then started on its port and data) at %.0f %%"
                + " of the traffic", (System.nanoTime() - down) / 1e9, before * 100));
        feed.await(s.timeout());
        kafka.produce(Ticks.after(traffic.end(), topics, kafka.partitionCount(topics.calls())));

        Set<String> expected = new HashSet<>(traffic.labels().stream().map(Label::runId).toList());
        SavepointRestore.awaitVerdicts(kafka, topics, expected, s.timeout());
        Waits.until(s.timeout(), "every flagged run in Elasticsearch", () -> new HashSet<>(elastic.ids(faultsIndex))
                .containsAll(Audit.flagged(kafka.read(topics.verdicts(), io.raglog.schemas.Verdict.class))));
        job.cancel();

        List<String> failures = job.failures();
        ChaosReport report = new ChaosReport("Elasticsearch outage and Kafka broker restart", traffic.runs(), 2,
                "Elasticsearch down " + s.elasticsearchDown().toSeconds() + " s, broker restarted",
                failures.size(), Audit.outputs(kafka, topics, new Audit.Expected(expected, s.job().sampling(), deadLetters, List.of()),
                        elastic, faultsIndex),
                Duration.ofNanos(System.nanoTime() - start), notes);
        return new Outcome(report, topics, faultsIndex, Rig.faultRatesIndex(name), failures);
    }
}

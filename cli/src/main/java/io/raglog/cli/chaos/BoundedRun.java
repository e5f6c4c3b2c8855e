package io.raglog.cli.chaos;

import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.schemas.Label;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The common shape of a scenario over a fixed amount of traffic: write it (and any spoiled messages) to fresh topics,
 * run the whole job over it to its end (exactly-once, checkpoints, restarts), do something to the job meanwhile, and
 * audit every output against the ground truth.
 */
public final class BoundedRun {

    /** What a scenario does while the job runs; returns what it did, for the report. */
    @FunctionalInterface
    public interface During {
        List<String> act(ChaosJob job, Topics topics) throws Exception;

        During NOTHING = (job, topics) -> List.of();
    }

    /**
     * @param spoiled messages written after the traffic ({@link BadInput}): spoiled envelopes must each become one
     *     dead letter, spoiled bodies may
     * @param elasticsearch whether the job also writes flagged runs and fault rates to the rig's Elasticsearch node
     */
    public record Settings(String scenario, Traffic traffic, List<BadInput.Spoiled> spoiled, JobSettings job,
            int parallelism, boolean elasticsearch, Duration timeout) {}

    /** The figures, and where everything was written, for callers that look closer. */
    public record Outcome(ChaosReport report, Topics topics, String faultsIndex, List<String> failures) {}

    private BoundedRun() {}

    public static Outcome run(Rig rig, Settings s, int faultsInjected, String faults, During during) throws Exception {
        long start = System.nanoTime();
        String name = s.scenario().replaceAll("[^a-z0-9]+", "-") + "-" + Long.toHexString(System.nanoTime());
        Topics topics = rig.topics(name);
        Kafka kafka = rig.kafka();
        Traffic.produce(kafka, topics, s.traffic().messages());
        List<BadInput.Spoiled> spoiled = s.spoiled();
        List<RecordMetadata> landed = Traffic.produce(kafka, topics,
                spoiled.stream().map(BadInput.Spoiled::message).toList());
        List<String> mustDeadLetter = new ArrayList<>();
        List<String> mayDeadLetter = new ArrayList<>();
        for (int i = 0; i < landed.size(); i++) {
            String id = Audit.identity(spoiled.get(i).message().value(), landed.get(i));
            (spoiled.get(i).kind().deadLetter() ? mustDeadLetter : mayDeadLetter).add(id);
        }

        ElasticsearchConnection es = s.elasticsearch() ? rig.elasticsearchConnection() : null;
        ChaosJob job = ChaosJob.submit(rig.cluster(), ChaosJob.configuration(rig.work().resolve(name),
                ChaosJob.Recovery.DEFAULT), s.parallelism(), name, null,
                env -> rig.wire(env, topics, name, true, s.job(), es, name));
        List<String> notes = new ArrayList<>(during.act(job, topics));
        job.awaitFinished(s.timeout());

        List<String> runIds = s.traffic().labels().stream().map(Label::runId).toList();
        List<String> failures = job.failures();
        ChaosReport report = new ChaosReport(s.scenario(), s.traffic().runs(), faultsInjected, faults, failures.size(),
                Audit.outputs(kafka, topics, new Audit.Expected(runIds, s.job().sampling(), mustDeadLetter,
                        mayDeadLetter), es == null ? null : new Elastic(es), Rig.faultsIndex(name)),
                Duration.ofNanos(System.nanoTime() - start), notes);
        return new Outcome(report, topics, Rig.faultsIndex(name), failures);
    }
}

package io.raglog.cli.chaos;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.job.JobSettings;
import io.raglog.monitor.SamplingPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * The scenarios at a scale the test suite cannot afford, on a rig of their own: a Flink MiniCluster of two task
 * managers, a real Kafka broker and a real Elasticsearch node in this process (the node in a JVM of its own), the
 * offline judge. What {@code ./raglog chaos} runs.
 */
public final class Chaos {

    public enum Scenario { TASK_MANAGER_LOSS, SAVEPOINT_RESTORE, OUTAGES, BAD_INPUT, FEEDBACK_JOIN }

    /**
     * @param runs simulated runs per scenario
     * @param outage how long Elasticsearch stays down (its restart comes on top)
     * @param losses task managers lost during the task-manager scenario
     * @param spoiled spoiled messages sent through the job in the bad-input scenario
     */
    public record Settings(int runs, long seed, Duration outage, int losses, int spoiled, List<Scenario> scenarios) {}

    private static final int TASK_MANAGERS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final Duration BROKER_DOWN = Duration.ofSeconds(10);

    private Chaos() {}

    public static List<ChaosReport> run(Settings s, Path work, PrintStream out) throws Exception {
        // the offline judge whatever RAGLOG_LLM_* says: chaos tries raglog, not an LLM provider's bill
        JobSettings offline = JobSettings.defaults().withChecks(ChecksSettings.defaults());
        List<ChaosReport> reports = new ArrayList<>();
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"));
                ElasticsearchProcess es = ElasticsearchProcess.start(work.resolve("elasticsearch"));
                MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                        .setConfiguration(conf)
                        .setNumTaskManagers(TASK_MANAGERS)
                        .setNumSlotsPerTaskManager(1)
                        .build())) {
            cluster.start();
            Rig rig = new Rig(cluster, TASK_MANAGERS, kafka, es, work);
            for (Scenario scenario : s.scenarios()) {
                out.printf("%s: %d runs ...%n", scenario, s.runs());
                ChaosReport report = switch (scenario) {
                    case TASK_MANAGER_LOSS -> TaskManagerLoss.run(rig, new TaskManagerLoss.Settings(s.runs(),
                            s.seed(), 2.0, 1.0, s.losses(), TASK_MANAGERS, offline, true, TIMEOUT));
                    case SAVEPOINT_RESTORE -> SavepointRestore.run(rig, new SavepointRestore.Settings(s.runs(),
                            s.seed(), TASK_MANAGERS, offline, TIMEOUT));
                    case OUTAGES -> OutageRideThrough.run(rig, new OutageRideThrough.Settings(
                            Traffic.simulate(Traffic.arriving(s.runs(), s.seed(), 1.0), c -> c), List.of(), 1.0,
                            s.outage(), BROKER_DOWN, TASK_MANAGERS, offline, null, TIMEOUT)).report();
                    case BAD_INPUT -> BoundedRun.run(rig, new BoundedRun.Settings("bad input",
                            Traffic.simulate(s.runs(), s.seed()),
                            BadInput.spoil(Traffic.simulate(40, s.seed() + 1), s.spoiled(), s.seed() + 2).toList(),
                            offline.withSampling(new SamplingPolicy(0.0, Map.of())), TASK_MANAGERS, false, TIMEOUT),
                            s.spoiled(), s.spoiled() + " spoiled messages", BoundedRun.During.NOTHING).report();
                    case FEEDBACK_JOIN -> FeedbackUnderLoss.run(rig, new FeedbackUnderLoss.Settings(s.runs(),
                            s.seed(), 2.0, 1.0, s.losses(), TASK_MANAGERS, offline, TIMEOUT));
                };
                out.print(report.describe());
                reports.add(report);
            }
        }
        return reports;
    }
}

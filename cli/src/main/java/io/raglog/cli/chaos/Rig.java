package io.raglog.cli.chaos;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.job.ElasticsearchOutputs;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.RaglogPipeline;
import io.raglog.job.Topics;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The parts a scenario breaks: a Flink MiniCluster (task managers to terminate), a real Kafka broker (to restart), an
 * Elasticsearch node (to stop), and a directory for checkpoints and savepoints. The tests build one from their
 * MiniCluster extension; {@code ./raglog chaos} from its own.
 *
 * @param elasticsearch null when the scenarios run without Elasticsearch
 */
public final class Rig {

    private final MiniCluster cluster;
    private final EmbeddedKafka broker;
    private final ElasticsearchProcess elasticsearch;
    private final Path work;
    /** Indices of the task managers alive, oldest first; MiniCluster numbers them in start order. */
    private final Deque<Integer> liveTaskManagers = new ArrayDeque<>();
    private int started;

    /** @param taskManagers how many task managers {@code cluster} was started with */
    public Rig(MiniCluster cluster, int taskManagers, EmbeddedKafka broker, ElasticsearchProcess elasticsearch,
            Path work) {
        this.cluster = cluster;
        this.broker = broker;
        this.elasticsearch = elasticsearch;
        this.work = work;
        for (int i = 0; i < taskManagers; i++) {
            liveTaskManagers.add(i);
        }
        this.started = taskManagers;
    }

    public MiniCluster cluster() {
        return cluster;
    }

    public Kafka kafka() {
        return new Kafka(broker.bootstrapServers());
    }

    public EmbeddedKafka broker() {
        return broker;
    }

    /** A connection to the rig's node, for the sinks and the audit. */
    public ElasticsearchConnection elasticsearchConnection() {
        return ElasticsearchConnection.builder().setHosts(elasticsearch.url()).build();
    }

    public ElasticsearchProcess elasticsearch() {
        return elasticsearch;
    }

    public Path work() {
        return work;
    }

    /**
     * Terminates the oldest live task manager, as a lost machine would, and starts a replacement so the job has its
     * slots again when it restarts. With one slot per task manager and a job as wide as the cluster, every task
     * manager runs a share of the job, so the loss always hits it.
     */
    public void loseTaskManager() throws Exception {
        int victim = liveTaskManagers.removeFirst();
        cluster.terminateTaskManager(victim).get(60, TimeUnit.SECONDS);
        cluster.startTaskManager();
        liveTaskManagers.addLast(started++);
    }

    /** Creates fresh topics named after the scenario, two partitions each. */
    public Topics topics(String name) {
        Topics topics = Topics.prefixed(name);
        kafka().createTopics(topics.all(), 2);
        return topics;
    }

    /**
     * The whole job between the scenario's topics (exactly-once), with Elasticsearch outputs when a connection is
     * given.
     *
     * @param bounded read the input up to its end at start, then finish; otherwise read until cancelled
     */
    public void wire(StreamExecutionEnvironment env, Topics topics, String groupId, boolean bounded,
            JobSettings settings, ElasticsearchConnection es, String indexPrefix) {
        KafkaConnection kafka = new KafkaConnection(broker.bootstrapServers(), topics, groupId, bounded,
                DeliveryGuarantee.EXACTLY_ONCE, new Properties());
        RaglogPipeline.Sinks sinks = es == null ? kafka.sinks()
                : kafka.sinks().and(ElasticsearchOutputs.installed(es, faultsIndex(indexPrefix),
                        faultRatesIndex(indexPrefix)));
        RaglogPipeline.wire(kafka.sources(env, settings), sinks, settings);
    }

    public static String faultsIndex(String prefix) {
        return "raglog-faults-" + prefix;
    }

    public static String faultRatesIndex(String prefix) {
        return "raglog-fault-rates-" + prefix;
    }
}

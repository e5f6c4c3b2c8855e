package io.raglog.cli.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import kafka.cluster.Partition;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import scala.Option;

/**
 * A real single-node KRaft broker in this JVM, for the embedded default ({@code demo}) and the tests: the same broker
 * code a production cluster runs, bound to loopback, with replication factors of 1.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** How long a created topic may take to be led by the broker before creating it counts as failed. */
    private static final Duration TOPIC_READY_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafka start(Path dataDir) throws Exception {
        Files.createDirectories(dataDir);
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .setBaseDirectory(dataDir)
                .build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                // keep everything: simulated traffic carries event times months old, which time-based retention
                // and segment rolling would otherwise delete as soon as it lands
                .setConfigProp("log.retention.ms", "-1")
                .setConfigProp("log.roll.ms", String.valueOf(Long.MAX_VALUE / 2))
                .setDeleteOnClose(true)
                .build();
        try {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        return new EmbeddedKafka(cluster);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public void createTopics(Collection<String> topics, int partitions) throws Exception {
        createTopics(topics, partitions, Map.of());
    }

    /** @param configs topic configuration, e.g. {@code message.timestamp.type=LogAppendTime} */
    public void createTopics(Collection<String> topics, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = admin()) {
            List<NewTopic> newTopics = topics.stream()
                    .map(t -> new NewTopic(t, partitions, (short) 1).configs(configs)).toList();
            admin.createTopics(newTopics).all().get();
        }
        awaitLeading(topics, partitions, TOPIC_READY_TIMEOUT);
    }

    /**
     * Returns once the broker leads every partition of the topics. Why wait: the controller acknowledges a creation
     * before the broker has applied it, and the broker answers metadata requests from its cache a moment before its
     * replica manager takes the partitions on. An idempotent producer's first batch to a partition that arrives in
     * between fails with NOT_LEADER_OR_FOLLOWER; if its next batch lands first, the retried first batch is out of
     * sequence for good and expires at the delivery timeout (KAFKA-14359; the broker is fixed in Kafka 4.5,
     * KAFKA-15591). The bench's simulator lost a batch to a topic created a moment before that way, in CI.
     */
    private void awaitLeading(Collection<String> topics, int partitions, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String topic : topics) {
            for (int p = 0; p < partitions; p++) {
                TopicPartition partition = new TopicPartition(topic, p);
                while (!leads(partition)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the broker does not lead " + partition + " " + timeout + " after creating it");
                    }
                    Thread.sleep(5);
                }
            }
        }
    }

    private boolean leads(TopicPartition topicPartition) {
        for (BrokerServer broker : cluster.brokers().values()) {
            Option<Partition> partition = broker.replicaManager().onlinePartition(topicPartition);
            if (partition.isDefined() && partition.get().isLeader()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Shuts the broker down as an operator's restart would (the KRaft controller stays up); clients see it gone
     * until {@link #startBroker()}. Its port and log directories are kept, so clients reconnect to the same address.
     */
    public void stopBroker() {
        for (BrokerServer broker : cluster.brokers().values()) {
            broker.shutdown();
            broker.awaitShutdown();
        }
    }

    /** Starts the broker stopped by {@link #stopBroker()} on the same port and data; returns once it serves. */
    public void startBroker() throws Exception {
        for (BrokerServer broker : cluster.brokers().values()) {
            broker.startup();
        }
        cluster.waitForReadyBrokers();
    }

    public Admin admin() {
        Properties props = new Properties();
        props.putAll(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
        return Admin.create(props);
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}

package io.raglog.cli.review;

import io.raglog.schemas.Json;
import io.raglog.schemas.Review;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a submitted review goes: Kafka (keyed by run id, one transaction per review, so a read_committed consumer
 * never sees a review the server gave up on) and Elasticsearch ({@code _id} = run id, so a re-review overwrites).
 * Kafka first: it is the record other systems consume; the index is the page's own view and is written last, so
 * what the page shows as reviewed is on the topic too. Without a broker the index alone is written.
 */
final class ReviewOutputs implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReviewOutputs.class);

    /** Where one review went. */
    record Written(String topic, Integer partition, Long offset, String index) {}

    private final ElasticsearchRest elasticsearch;
    private final String reviewsIndex;
    private final String topic;
    private final KafkaProducer<String, byte[]> producer;

    private ReviewOutputs(ElasticsearchRest elasticsearch, String reviewsIndex, String topic,
            KafkaProducer<String, byte[]> producer) {
        this.elasticsearch = elasticsearch;
        this.reviewsIndex = reviewsIndex;
        this.topic = topic;
        this.producer = producer;
    }

    /** Elasticsearch only. */
    static ReviewOutputs elasticsearchOnly(ElasticsearchRest elasticsearch, String reviewsIndex) {
        return new ReviewOutputs(elasticsearch, reviewsIndex, null, null);
    }

    /**
     * Both; creates the topic when the broker lacks it (a cluster that forbids it has it made by its operators) and
     * opens a transactional producer with an id of its own, so two review servers never fence each other.
     */
    static ReviewOutputs withKafka(ElasticsearchRest elasticsearch, String reviewsIndex, String bootstrap,
            String topic) {
        ensureTopic(bootstrap, topic);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "raglog-review-" + UUID.randomUUID());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            producer.close();
            throw e;
        }
        return new ReviewOutputs(elasticsearch, reviewsIndex, topic, producer);
    }

    /**
     * Writes one review to the topic (committed before this returns) and then the index, refreshed at once so the
     * page's next read sees it (waiting for the periodic refresh cost a second per review; reviews come one at a
     * time, from people).
     *
     * @throws IllegalStateException when either refuses; the reviewer submits again (same key, same document id)
     */
    synchronized Written write(Review review) {
        Integer partition = null;
        Long offset = null;
        if (producer != null) {
            RecordMetadata sent = send(review);
            partition = sent.partition();
            offset = sent.offset();
        }
        elasticsearch.call("PUT", ElasticsearchRest.document(reviewsIndex, review.runId()) + "?refresh=true",
                Json.write(review));
        return new Written(topic, partition, offset, reviewsIndex);
    }

    private RecordMetadata send(Review review) {
        try {
            producer.beginTransaction();
            RecordMetadata sent = producer.send(new ProducerRecord<>(topic, review.runId(), Json.writeBytes(review)))
                    .get();
            producer.commitTransaction();
            return sent;
        } catch (ExecutionException | KafkaException e) {
            abortQuietly();
            throw new IllegalStateException("Kafka did not take the review of run " + review.runId() + ": "
                    + (e.getCause() == null ? e : e.getCause()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abortQuietly();
            throw new IllegalStateException("interrupted while sending the review of run " + review.runId(), e);
        }
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            LOG.warn("aborting the review transaction failed", e);
        }
    }

    private static void ensureTopic(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.empty(), Optional.empty()))).all().get();
            LOG.info("created topic {}", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                LOG.warn("could not create topic {} ({}); writing to it anyway", topic, e.getCause().toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topic " + topic, e);
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close();
        }
    }
}

package io.raglog.cli.review;

import io.raglog.schemas.Run;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.Map;

/**
 * The review page with everything it holds open (the Elasticsearch client, the transactional producer, the HTTP
 * server), started and closed as one: for {@code raglog review} and the benchmarks.
 */
public final class ReviewService implements AutoCloseable {

    /** Where the queue is read and reviews are written. */
    public record Names(String faultsIndex, String reviewsIndex, String reviewsTopic) {
        public static Names defaults() {
            return new Names(IndexTemplates.FAULTS, IndexTemplates.REVIEWS, "raglog.reviews");
        }
    }

    private final ElasticsearchRest rest;
    private final ReviewOutputs outputs;
    private final ReviewServer server;
    private final String description;

    private ReviewService(ElasticsearchRest rest, ReviewOutputs outputs, ReviewServer server, String description) {
        this.rest = rest;
        this.outputs = outputs;
        this.server = server;
        this.description = description;
    }

    /**
     * Serves the page on {@code address} (port 0 for any free one).
     *
     * @param kafka the bootstrap servers reviews also go to; null for Elasticsearch only
     * @param runs runs by id whose passages the page shows; empty for none
     */
    public static ReviewService start(ElasticsearchConnection elasticsearch, String kafka, Names names,
            InetSocketAddress address, Map<String, Run> runs, Clock clock) throws IOException {
        ElasticsearchRest rest = new ElasticsearchRest(elasticsearch);
        ReviewOutputs outputs = null;
        try {
            outputs = kafka == null ? ReviewOutputs.elasticsearchOnly(rest, names.reviewsIndex())
                    : ReviewOutputs.withKafka(rest, names.reviewsIndex(), kafka, names.reviewsTopic());
            ReviewServer server = ReviewServer.start(address,
                    new DebuggingQueue(rest, names.faultsIndex(), names.reviewsIndex()), outputs, runs, clock);
            return new ReviewService(rest, outputs, server, "queue: " + names.faultsIndex() + " on " + rest
                    + "; reviews: " + names.reviewsIndex() + (kafka == null ? ", no Kafka"
                            : " and " + names.reviewsTopic() + " on " + kafka)
                    + (runs.isEmpty() ? "; no runs file: passages not shown" : "; passages of " + runs.size()
                            + " runs"));
        } catch (IOException | RuntimeException e) {
            if (outputs != null) {
                outputs.close();
            }
            rest.close();
            throw e;
        }
    }

    /** The page's address. */
    public URI url() {
        return server.url();
    }

    @Override
    public String toString() {
        return description;
    }

    @Override
    public void close() throws IOException {
        server.close();
        outputs.close();
        rest.close();
    }
}

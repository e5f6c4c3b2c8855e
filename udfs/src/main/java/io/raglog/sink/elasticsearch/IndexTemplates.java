package io.raglog.sink.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs raglog's index templates, so its indices get proper mappings (keyword ids and stage names, text for the
 * question, answer and evidence, dates, floats) instead of guessed ones. Called once at job start, before any
 * document is written: a template applies to indices created after it. {@code PUT _index_template/NAME} replaces,
 * so installing again (every job start) is harmless and picks up a changed mapping for the next new index.
 *
 * <p>Text fields use the standard analyzer only: language analyzers live in a module not every cluster has.
 */
public final class IndexTemplates {

    private static final Logger LOG = LoggerFactory.getLogger(IndexTemplates.class);

    /** Flagged runs: the debugging queue. */
    public static final String FAULTS = "raglog-faults";
    /** Fault rates per pipeline × stage × window. */
    public static final String FAULT_RATES = "raglog-fault-rates";
    /** People's reviews of the debugging queue (raglog.review/v1), written by {@code raglog review}. */
    public static final String REVIEWS = "raglog-reviews";
    /** Documents Elasticsearch refused, kept by {@link BulkFailureHandlers#deadLetterIndex(String)}. */
    public static final String DEAD_LETTERS = ElasticsearchSink.DEFAULT_DEAD_LETTER_INDEX;

    /** Embedding drift records: model changes, retrieval score shifts, index/query mismatches. */
    public static final String DRIFT = "raglog-drift";

    public static final List<String> ALL = List.of(FAULTS, FAULT_RATES, DRIFT, REVIEWS, DEAD_LETTERS);

    private IndexTemplates() {}

    /**
     * Installs every raglog template, waiting up to {@code patience} for Elasticsearch to answer (it may be starting
     * beside the job).
     *
     * @throws ElasticsearchSinkException when Elasticsearch refuses a template or stays unreachable
     */
    public static void installAll(ElasticsearchConnection connection, Duration patience) {
        try (RestClient client = connection.openClient()) {
            for (String name : ALL) {
                install(client, name, patience, connection);
            }
        } catch (IOException e) {
            LOG.debug("closing the Elasticsearch client failed", e);
        }
    }

    /** The template body for one of {@link #ALL}, as shipped in this jar. */
    public static String templateJson(String name) {
        if (!ALL.contains(name)) {
            throw new IllegalArgumentException("no raglog index template named [" + name + "]; known: " + ALL);
        }
        try (InputStream in = IndexTemplates.class.getResourceAsStream(name + ".json")) {
            if (in == null) {
                throw new IllegalStateException("index template " + name + ".json is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void install(RestClient client, String name, Duration patience, ElasticsearchConnection where) {
        Request put = new Request("PUT", "/_index_template/" + name);
        put.setJsonEntity(templateJson(name));
        long deadline = System.nanoTime() + patience.toNanos();
        Backoff backoff = Backoff.defaults();
        for (int attempt = 1; ; attempt++) {
            try {
                client.performRequest(put);
                LOG.info("index template [{}] installed on {}", name, where);
                return;
            } catch (ResponseException e) {
                int status = e.getResponse().getStatusLine().getStatusCode();
                if (status != 429 && status < 500) {
                    throw new ElasticsearchSinkException("Elasticsearch refused index template [" + name + "] with HTTP "
                            + status + ": " + bodyOf(e));
                }
                waitOrGiveUp(name, where, deadline, backoff, attempt, "HTTP " + status);
            } catch (IOException e) {
                waitOrGiveUp(name, where, deadline, backoff, attempt, e.toString());
            }
        }
    }

    private static void waitOrGiveUp(String name, ElasticsearchConnection where, long deadline, Backoff backoff,
            int attempt, String why) {
        long delayMs = backoff.delayMs(attempt);
        if (System.nanoTime() + delayMs * 1_000_000 > deadline) {
            throw new ElasticsearchSinkException("cannot install index template [" + name + "] on " + where + ": "
                    + why);
        }
        LOG.warn("installing index template [{}] on {} failed ({}); trying again in {} ms", name, where, why, delayMs);
        try {
            Thread.sleep(delayMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasticsearchSinkException("interrupted while installing index template [" + name + "]");
        }
    }

    private static String bodyOf(ResponseException e) {
        try {
            return BulkResponse.shorten(EntityUtils.toString(e.getResponse().getEntity()));
        } catch (IOException | RuntimeException ignored) {
            return e.getResponse().getStatusLine().getReasonPhrase();
        }
    }
}

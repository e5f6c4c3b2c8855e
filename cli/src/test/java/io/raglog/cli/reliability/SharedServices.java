package io.raglog.cli.reliability;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Kafka broker and one Elasticsearch node for all reliability tests of a test run, each started on first use and
 * closed when the run ends: starting them costs more than most of the tests. Scenarios that stop or restart them
 * bring them back before they return; every test writes to topics and indices of its own.
 */
final class SharedServices implements BeforeAllCallback, AutoCloseable {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedServices.class);

    private static SharedServices current;

    private final Path work;
    private EmbeddedKafka kafka;
    private ElasticsearchProcess elasticsearch;

    /** For {@code @ExtendWith}; the instance JUnit creates only registers the shared one. */
    SharedServices() {
        this.work = null;
    }

    private SharedServices(Path work) {
        this.work = work;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SharedServices.class, k -> {
            try {
                current = new SharedServices(Files.createTempDirectory(
                        Path.of(System.getProperty("java.io.tmpdir")), "reliability-"));
                return current;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, SharedServices.class);
    }

    static synchronized EmbeddedKafka kafka() throws Exception {
        if (current.kafka == null) {
            current.kafka = EmbeddedKafka.start(current.work.resolve("kafka"));
        }
        return current.kafka;
    }

    static synchronized ElasticsearchProcess elasticsearch() throws IOException {
        if (current.elasticsearch == null) {
            current.elasticsearch = ElasticsearchProcess.start(current.work.resolve("elasticsearch"));
        }
        return current.elasticsearch;
    }

    /** Checkpoints, savepoints and scenario files. */
    static Path work() {
        return current.work;
    }

    @Override
    public void close() throws Exception {
        if (elasticsearch != null) {
            elasticsearch.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}

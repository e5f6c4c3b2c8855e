package io.raglog.cli.review;

import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.ElasticsearchSinkException;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code raglog review}: the debugging queue worked by people, one run at a time, in a browser. */
@Command(name = "review", mixinStandardHelpOptions = true,
        description = {"Serve the review page: the debugging queue from Elasticsearch, filtered by pipeline, stage,",
            "fault kind and time; a reviewer confirms or rejects each flagged stage, marks missed stages or a",
            "knowledge gap. Reviews (raglog.review/v1) go to Kafka and to Elasticsearch, id = run id."})
public final class ReviewCommand implements Callable<Integer> {

    @Mixin
    ElasticsearchClientOptions elasticsearch;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP",
            description = "Also write each review to Kafka (transactions, keyed by run id). Without it, Elasticsearch "
                    + "only.")
    String kafka;

    @Option(names = "--listen", defaultValue = "127.0.0.1:8088", paramLabel = "HOST:PORT",
            description = "Where the page is served (default: ${DEFAULT-VALUE}; port 0 for any free one).")
    String listen;

    @Option(names = "--faults-index", defaultValue = IndexTemplates.FAULTS,
            description = "The debugging queue's index (default: ${DEFAULT-VALUE}).")
    String faultsIndex;

    @Option(names = "--reviews-index", defaultValue = IndexTemplates.REVIEWS,
            description = "Where reviews are indexed (default: ${DEFAULT-VALUE}).")
    String reviewsIndex;

    @Option(names = "--reviews-topic", defaultValue = "raglog.reviews",
            description = "Where reviews are sent with --kafka (default: ${DEFAULT-VALUE}).")
    String reviewsTopic;

    @Option(names = "--runs", arity = "1..*", paramLabel = "FILE",
            description = "Runs JSONL (replay --runs-out, or the raglog.runs topic in a file): the page then shows "
                    + "each run's passages as they moved; Elasticsearch does not hold them.")
    List<Path> runs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        ElasticsearchConnection connection = elasticsearch.connection(System.getenv());
        try {
            IndexTemplates.installAll(connection, Duration.ofSeconds(30));
        } catch (ElasticsearchSinkException e) {
            // a reviewer's credentials may read and write documents without managing templates: the job installs them
            System.err.println("note: index templates not installed (" + e.getMessage() + ")");
        }
        int colon = listen.lastIndexOf(':');
        if (colon < 0) {
            System.err.println("--listen takes HOST:PORT, was " + listen);
            return 2;
        }
        InetSocketAddress address = new InetSocketAddress(listen.substring(0, colon),
                Integer.parseInt(listen.substring(colon + 1)));
        CountDownLatch stopped = new CountDownLatch(1);
        try (ReviewService service = ReviewService.start(connection, kafka,
                new ReviewService.Names(faultsIndex, reviewsIndex, reviewsTopic), address, PassageFlow.load(runs),
                Clock.systemUTC())) {
            System.out.println("review page: " + service.url() + "  (" + service + ")");
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "review-stop"));
            stopped.await();
        }
        return 0;
    }
}

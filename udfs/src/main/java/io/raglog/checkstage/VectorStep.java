package io.raglog.checkstage;

import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.checks.SharedEmbedder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The vector checks of the async checks operator ({@link LlmChecksFunction}), on a thread of their own: the embedding model is the slowest step of
 * a run, and run on the task thread it held up everything chained there (assembly's timers, the rules, scoring, the
 * sinks) and then waited for the LLM on top. Here a run's texts are embedded while its LLM calls are out, and the task
 * thread goes on with other runs.
 *
 * <p>One thread per subtask, as before (the model's session is shared by the JVM's slots; each slot embeds on one
 * core). Its queue needs no bound of its own: the async operator's capacity bounds the runs in flight.
 */
final class VectorStep implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VectorStep.class);

    private static final long STOP_WAIT_SECONDS = 30;

    private final CheapChecks vectors;
    private final ExecutorService thread;
    private final Consumer<RuntimeException> onFailure;
    private boolean released;

    /** @param onFailure counts a run whose vector checks threw (its rule features go on without them) */
    VectorStep(long cacheEntries, int modelThreads, String threadName, Consumer<RuntimeException> onFailure) {
        this.vectors = new CheapChecks(SharedEmbedder.acquire(cacheEntries, modelThreads));
        this.onFailure = onFailure;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** The run with its vector features added, completed on the embedding thread; never completes exceptionally. */
    CompletableFuture<CheckedRun> apply(CheckedRun rulesChecked) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return vectors.addVectors(rulesChecked);
            } catch (RuntimeException e) {
                // never a lost run: it goes on with its rule features, as a failed cheap check does
                onFailure.accept(e);
                LOG.warn("vector checks failed on run {}; its vector features are missing", rulesChecked.run().runId(),
                        e);
                return rulesChecked;
            }
        }, thread);
    }

    /** Runs work on the embedding thread, after what is queued there (the offline judge reads the vectors cached). */
    java.util.concurrent.Executor executor() {
        return thread;
    }

    /**
     * Stops the thread and only then lets go of the model: the last release closes the native session, and closing it
     * under a model call that is still running crashes the JVM. A model call cannot be interrupted, but it lasts
     * milliseconds; should the thread not stop in time, the model is kept (a leak) rather than closed under it.
     */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("the embedding thread did not stop within {} s; the embedding model stays loaded",
                        STOP_WAIT_SECONDS);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!released) {
            released = true;
            SharedEmbedder.release();
        }
    }
}

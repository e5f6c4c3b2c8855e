package io.raglog.proxy.record;

import io.raglog.proxy.metrics.ProxyMetrics;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between the event loops and the sink: a queue bounded in calls and in bytes, and one thread that builds, redacts,
 * encodes and writes each event. When the sink is slow or down the queue fills and further recordings are dropped and
 * counted; {@link #offer} never blocks, so a call is never held up by its own recording.
 */
public final class Recorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    private final BlockingQueue<CapturedCall> queue;
    private final long maxQueuedBytes;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final CallEventFactory events;
    private final RecordSink sink;
    private final ProxyMetrics metrics;
    private final Thread worker;
    private volatile boolean accepting = true;

    public Recorder(CallEventFactory events, RecordSink sink, ProxyMetrics metrics, int maxQueuedCalls,
            long maxQueuedBytes) {
        this.queue = new ArrayBlockingQueue<>(maxQueuedCalls);
        this.maxQueuedBytes = maxQueuedBytes;
        this.events = events;
        this.sink = sink;
        this.metrics = metrics;
        this.worker = new Thread(this::drain, "raglog-proxy-recorder");
        this.worker.setDaemon(true);
        metrics.queueDepth(queue::size);
        this.worker.start();
    }

    /** Queues a call's recording, or drops and counts it when the queue is full. Never blocks. */
    public void offer(CapturedCall call) {
        if (!accepting) {
            metrics.dropped(ProxyMetrics.DropReason.SHUTDOWN);
            return;
        }
        long weight = call.weight();
        if (queuedBytes.addAndGet(weight) > maxQueuedBytes || !queue.offer(call)) {
            queuedBytes.addAndGet(-weight);
            metrics.dropped(ProxyMetrics.DropReason.QUEUE_FULL);
        }
    }

    private void drain() {
        while (true) {
            CapturedCall call;
            try {
                call = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (call == null) {
                if (!accepting) {
                    return;
                }
                continue;
            }
            queuedBytes.addAndGet(-call.weight());
            record(call);
        }
    }

    private void record(CapturedCall call) {
        byte[] json;
        CallEvent event;
        try {
            event = events.build(call);
            json = Json.writeBytes(event);
        } catch (RuntimeException e) {
            // A body Jackson cannot encode must not stop the recorder; the call itself already went through.
            LOG.warn("could not encode a recorded {} {} call: {}", call.method(), call.status(), e.toString());
            metrics.dropped(ProxyMetrics.DropReason.ENCODE_ERROR);
            return;
        }
        AtomicBoolean answered = new AtomicBoolean();
        sink.write(event, json, failure -> {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            if (failure == null) {
                metrics.recorded(json.length);
            } else {
                metrics.dropped(ProxyMetrics.DropReason.SINK_ERROR);
                metrics.sinkFailure(failure);
            }
        });
    }

    /** Stops taking calls, writes what is queued (within {@code grace}), then closes the sink. */
    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    public void close(Duration grace) {
        accepting = false;
        try {
            worker.join(grace.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            worker.interrupt();
        }
        int left = queue.size();
        for (int i = 0; i < left; i++) {
            metrics.dropped(ProxyMetrics.DropReason.SHUTDOWN);
        }
        queue.clear();
        // Closing writes what the sink still holds, within the sink's own bound (a producer gives up after a few
        // seconds with Kafka down, failing the rest, which are then counted as dropped), so shutdown cannot hang.
        sink.close();
    }

    public RecordSink sink() {
        return sink;
    }
}

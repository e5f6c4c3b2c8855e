package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.proxy.metrics.ProxyMetrics;
import io.raglog.schemas.CallEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class RecorderTest {

    /** A sink that hangs until released, like a producer waiting on a broker that is gone. */
    static class StuckSink implements RecordSink {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);
        final List<CallEvent> written = new CopyOnWriteArrayList<>();

        @Override
        public void write(CallEvent event, byte[] json, Consumer<Exception> done) {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            written.add(event);
            done.accept(null);
        }

        @Override
        public String describe() {
            return "stuck";
        }

        @Override
        public void close() {}
    }

    private static CapturedCall call(int i) {
        return new CapturedCall(Instant.EPOCH, Instant.EPOCH.plusMillis(i), null, "POST",
                "http://127.0.0.1/v1/embeddings", List.of(), CapturedBody.EMPTY, 200, List.of(), CapturedBody.EMPTY,
                null);
    }

    @Test
    void shouldDropAndCountRecordingsInsteadOfBlockingWhenTheSinkIsStuck() throws Exception {
        ProxyMetrics metrics = new ProxyMetrics();
        StuckSink sink = new StuckSink();
        Recorder recorder = new Recorder(new CallEventFactory(new Redactor(RedactionRules.defaults()), "p", 1024),
                sink, metrics, 3, 1 << 20);
        recorder.offer(call(0));
        assertThat(sink.entered.await(10, TimeUnit.SECONDS)).isTrue();

        for (int i = 1; i <= 10; i++) {
            recorder.offer(call(i)); // returns at once although the sink has not moved
        }

        assertThat(metrics.snapshot().dropped()).containsEntry(ProxyMetrics.DropReason.QUEUE_FULL, 7L);
        assertThat(metrics.snapshot().queueDepth()).isEqualTo(3);
        sink.release.countDown();
        recorder.close(Duration.ofSeconds(10));
        assertThat(sink.written).hasSize(4);
        assertThat(metrics.snapshot().recorded()).isEqualTo(4);
    }

    @Test
    void shouldBoundTheQueueInBytesToo() {
        ProxyMetrics metrics = new ProxyMetrics();
        StuckSink sink = new StuckSink();
        sink.release.countDown();
        long oneCall = call(0).weight();
        Recorder recorder = new Recorder(new CallEventFactory(new Redactor(RedactionRules.defaults()), "p", 1024),
                sink, metrics, 1000, oneCall);
        // Only as many as fit in the byte bound get in; the recorder thread drains them as they come.
        for (int i = 0; i < 200; i++) {
            recorder.offer(call(i));
        }
        recorder.close(Duration.ofSeconds(10));
        ProxyMetrics.Snapshot s = metrics.snapshot();
        assertThat(s.recorded() + s.droppedTotal()).isEqualTo(200);
        assertThat(sink.written).hasSize((int) s.recorded());
    }

    @Test
    void shouldCountASinkFailureAsADrop() {
        ProxyMetrics metrics = new ProxyMetrics();
        RecordSink failing = new StuckSink() {
            @Override
            public void write(CallEvent event, byte[] json, Consumer<Exception> done) {
                done.accept(new IllegalStateException("broker gone"));
                done.accept(null); // a second answer must not count twice
            }
        };
        Recorder recorder = new Recorder(new CallEventFactory(new Redactor(RedactionRules.defaults()), "p", 1024),
                failing, metrics, 10, 1 << 20);
        recorder.offer(call(1));
        recorder.close(Duration.ofSeconds(10));
        assertThat(metrics.snapshot().dropped()).containsEntry(ProxyMetrics.DropReason.SINK_ERROR, 1L);
        assertThat(metrics.snapshot().recorded()).isZero();
        assertThat(metrics.snapshot().lastSinkFailure()).contains("broker gone");
    }
}

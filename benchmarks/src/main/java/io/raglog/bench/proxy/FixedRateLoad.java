package io.raglog.bench.proxy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load: request i is due at {@code start + i / rate} and sent then whether or not earlier ones finished; its
 * latency runs from when it was due, so a stall shows up in every request it delayed (no coordinated omission).
 */
final class FixedRateLoad {

    /** One phase's raw outcome: every request's latency in nanoseconds, failures, and its span in seconds. */
    record Phase(long[] latencies, int failures, double seconds) {}

    /** Phases pooled into figures, in milliseconds. */
    record Summary(int requests, int failures, double p50, double p90, double p99, double p999, double max,
            double throughputPerSecond) {

        static Summary of(java.util.List<Phase> phases) {
            int n = phases.stream().mapToInt(p -> p.latencies().length).sum();
            long[] all = new long[n];
            int at = 0;
            int failures = 0;
            double seconds = 0;
            for (Phase p : phases) {
                System.arraycopy(p.latencies(), 0, all, at, p.latencies().length);
                at += p.latencies().length;
                failures += p.failures();
                seconds += p.seconds();
            }
            Arrays.sort(all);
            return new Summary(n, failures, ms(percentile(all, 0.50)), ms(percentile(all, 0.90)),
                    ms(percentile(all, 0.99)), ms(percentile(all, 0.999)), ms(all[all.length - 1]), n / seconds);
        }
    }

    private final HttpClient client;
    private final byte[] body;

    FixedRateLoad(HttpClient client, byte[] body) {
        this.client = client;
        this.body = body;
    }

    Phase run(URI target, int requests, double ratePerSecond) throws InterruptedException {
        long[] latencies = new long[requests];
        AtomicInteger failures = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(requests);
        long periodNanos = (long) (1e9 / ratePerSecond);
        long start = System.nanoTime() + 1_000_000;
        long[] lastCompletion = {start};
        HttpRequest request = HttpRequest.newBuilder(target)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer sk-proj-FAKE-FAKE-FAKE-bench")
                .header("x-raglog-run-id", "bench")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        for (int i = 0; i < requests; i++) {
            long due = start + i * periodNanos;
            waitUntil(due);
            int index = i;
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                long now = System.nanoTime();
                latencies[index] = now - due;
                if (error != null || response.statusCode() != 200) {
                    failures.incrementAndGet();
                }
                synchronized (lastCompletion) {
                    lastCompletion[0] = Math.max(lastCompletion[0], now);
                }
                done.countDown();
            });
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("requests still outstanding 60 s after the last was sent");
        }
        return new Phase(latencies, failures.get(), (lastCompletion[0] - start) / 1e9);
    }

    /** Closed loop with {@code concurrency} requests always outstanding, for {@code requests} in all: capacity. */
    double maxThroughput(URI target, int requests, int concurrency) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(target).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(requests);
        long start = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            sendNext(request, target, next, requests, done);
        }
        if (!done.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("capacity phase did not finish");
        }
        return requests / ((System.nanoTime() - start) / 1e9);
    }

    private void sendNext(HttpRequest request, URI target, AtomicInteger next, int requests, CountDownLatch done) {
        if (next.getAndIncrement() >= requests) {
            return;
        }
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((r, e) -> {
            done.countDown();
            sendNext(request, target, next, requests, done);
        });
    }

    private static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            if (left > 200_000) {
                LockSupport.parkNanos(left - 100_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static long percentile(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }
}

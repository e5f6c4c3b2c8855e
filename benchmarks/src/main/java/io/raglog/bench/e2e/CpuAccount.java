package io.raglog.bench.e2e;

import io.raglog.checks.SharedEmbedder;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;

/**
 * Where a job's CPU goes, per run: the process's CPU time and every Java thread's, sampled while the job runs and
 * read over the same window its rate is taken on. A rate on this shared 2-core machine moves with everything else
 * that runs; the CPU a run costs moves far less, and it says which part of the process the run's cost is in.
 *
 * <p>Threads are grouped by name ({@link Group}); CPU the process spent outside Java threads (the JIT's compiler
 * threads are hidden from {@code ThreadMXBean}, the GC's are not Java threads) is {@link Group#JVM}: process CPU less
 * the sum of the Java threads'. A thread that ends keeps the CPU it had when last seen.
 *
 * <p>Beside the CPU, the bytes each Java thread allocated on the heap ({@code getThreadAllocatedBytes}, sampled
 * alongside): a run's garbage is paid for later by the GC threads, outside the thread that made it, so raglog's own
 * allocation per run is read at its source, its task threads ({@link #OWN}).
 */
final class CpuAccount implements AutoCloseable {

    /** Thread groups, by what they do for a run. */
    enum Group {
        /** Flink's task thread of the chain that assembles runs and writes the runs topic ("assemble runs ..."). */
        ASSEMBLY_TASK("assembly_task"),
        /** Flink's source task threads: in the job, decoding and classifying calls; in the passthrough, the copy. */
        SOURCE_TASKS("source_tasks"),
        /**
         * Any other Flink task thread: the chains after the assembly (known passages, checks, scoring and their
         * writers), the fault-rate windows, the dead-letter writer.
         */
        OTHER_TASKS("other_tasks"),
        /** The Kafka clients' own threads: the sources' fetchers and the sinks' producer network threads. */
        KAFKA_CLIENTS("kafka_clients"),
        /** The vector checks' embedding threads, one per subtask: the model runs on them ("raglog-embed-N"). */
        EMBEDDING("embedding"),
        /** The LLM checks' HTTP client (async-http-client's event loop). */
        LLM_CLIENT("llm_client"),
        /** The benchmark's local LLM endpoint: the stand-in for a remote API, not the job's own cost. */
        LLM_ENDPOINT("llm_endpoint"),
        /** The in-process Kafka broker (KRaft: its controller too). */
        KAFKA_BROKER("kafka_broker"),
        /** Every other Java thread: Flink's runtime (actors, timers, output flushers), the benchmark's own threads. */
        OTHER_JAVA("other_java"),
        /** Process CPU outside Java threads: JIT compilation, garbage collection, the VM thread. */
        JVM("jvm");

        /** The broker's thread names (Kafka 4's, in KRaft mode with the test kit), by their start. */
        private static final Pattern BROKER_THREAD = Pattern.compile(
                "data-plane-kafka|kafka-\\d+-|kafka-scheduler|kafka-log-cleaner|kafka-cluster-test-kit"
                        + "|quorum-controller|group-coordinator|share-coordinator|broker-\\d+-|ExpirationReaper"
                        + "|raft-|persister-|network-partition-metadata|client-metrics-reaper|metrics-meter-tick"
                        + "|LogDirFailureHandler");

        /** Flink's task threads: "<task name> (<subtask>/<parallelism>)#<attempt>". */
        private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

        final String key;

        Group(String key) {
            this.key = key;
        }

        static Group of(String thread) {
            if (thread.startsWith("assemble runs")) {
                return ASSEMBLY_TASK;
            }
            if (thread.startsWith("Source Data Fetcher") || thread.startsWith("kafka-producer-network-thread")) {
                return KAFKA_CLIENTS;
            }
            if (thread.startsWith("Source: ")) {
                return SOURCE_TASKS;
            }
            if (thread.startsWith("raglog-embed")) {
                return EMBEDDING;
            }
            if (thread.startsWith("raglog-llm")) {
                return LLM_CLIENT;
            }
            if (thread.startsWith("bench-llm")) {
                return LLM_ENDPOINT;
            }
            if (BROKER_THREAD.matcher(thread).lookingAt()) {
                return KAFKA_BROKER;
            }
            if (TASK_THREAD.matcher(thread).matches()) {
                return OTHER_TASKS;
            }
            return OTHER_JAVA;
        }
    }

    /** raglog's own threads: the task threads that run its operators (the rest is I/O, Flink's runtime, the JVM). */
    static final java.util.Set<Group> OWN = java.util.EnumSet.of(Group.ASSEMBLY_TASK, Group.SOURCE_TASKS,
            Group.OTHER_TASKS);

    /**
     * The I/O a run cannot avoid: the Kafka clients and the broker, the LLM's HTTP client and the local endpoint
     * answering it (a stand-in for a remote API: {@code io_cpu_ms_per_run_*_without_endpoint} leaves it out).
     */
    static final java.util.Set<Group> IO = java.util.EnumSet.of(Group.KAFKA_CLIENTS, Group.KAFKA_BROKER,
            Group.LLM_CLIENT, Group.LLM_ENDPOINT);

    /**
     * CPU nanoseconds per group at one moment (wall clock, ms: the clock Kafka's record timestamps are taken on), and
     * the texts the embedding model had been asked for by then.
     */
    private record Sample(long atMs, EnumMap<Group, Long> cpuNs, long ownAllocatedBytes, long textsEmbedded) {}

    /**
     * CPU milliseconds per run in a window, per group, and their sum (the process); and the texts the embedding model
     * embedded per run there (its cache misses; zero with the vector checks off), and the heap bytes raglog's own
     * task threads ({@link #OWN}) allocated per run.
     */
    record PerRun(Map<Group, Double> msByGroup, double totalMs, double textsEmbedded, double ownAllocatedBytes,
            int samplesInWindow) {

        /**
         * Whether the window held two samples or more. A window inside one sampling period reads each thread at the
         * samples around it, and a task thread that ended before the later one is read there at its value from before
         * the window: a short job's raglog threads could read as having done nothing (0 ms a run).
         */
        boolean spansSamples() {
            return samplesInWindow >= 2;
        }

        double ms(Group g) {
            return msByGroup.getOrDefault(g, 0.0);
        }

        double ms(java.util.Set<Group> groups) {
            return groups.stream().mapToDouble(this::ms).sum();
        }
    }

    private static final long PERIOD_MS = 100;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /** Last CPU time seen per thread id, and its group: an ended thread's CPU stays counted. */
    private final Map<Long, Long> lastCpu = new HashMap<>();
    private final Map<Long, Group> groups = new HashMap<>();
    /** Last allocated bytes seen per thread id, for the threads in {@link #OWN} only. */
    private final Map<Long, Long> lastAllocated = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    /** The JVM group's CPU at the last sample ({@link Group#JVM}). */
    private long lastJvm;
    private final Thread sampler;
    private volatile boolean running = true;

    private CpuAccount() {
        sample();
        sampler = new Thread(this::loop, "bench-cpu-account");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts sampling now, every 100 ms, until closed. */
    static CpuAccount start() {
        return new CpuAccount();
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    private synchronized void sample() {
        long at = System.currentTimeMillis();
        long process = os.getProcessCpuTime();
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            if (cpu < 0) {
                continue; // ended between the two calls: its last value stays
            }
            lastCpu.put(id, cpu);
            if (OWN.contains(groups.computeIfAbsent(id, this::groupOf))) {
                long allocated = threads.getThreadAllocatedBytes(id);
                if (allocated >= 0) {
                    lastAllocated.put(id, allocated);
                }
            }
        }
        EnumMap<Group, Long> byGroup = new EnumMap<>(Group.class);
        long java = 0;
        for (Map.Entry<Long, Long> e : lastCpu.entrySet()) {
            byGroup.merge(groups.get(e.getKey()), e.getValue(), Long::sum);
            java += e.getValue();
        }
        // the process's CPU is read before the threads', so a sample delayed between the two counts the threads' later
        // CPU against the process's earlier: never let the JVM's share go back, or a short window could read negative
        lastJvm = Math.max(lastJvm, process - java);
        byGroup.put(Group.JVM, lastJvm);
        long ownAllocated = lastAllocated.values().stream().mapToLong(Long::longValue).sum();
        samples.add(new Sample(at, byGroup, ownAllocated, SharedEmbedder.misses()));
    }

    private Group groupOf(long id) {
        var info = threads.getThreadInfo(id);
        return info == null ? Group.OTHER_JAVA : Group.of(info.getThreadName());
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }

    /**
     * CPU per run between two wall-clock moments (each group's cumulative CPU interpolated at both ends).
     *
     * @param runs the runs completed between them
     */
    synchronized PerRun perRun(TopicRecords.Window window, double runs) {
        if (samples.size() < 2 || runs <= 0) {
            throw new IllegalStateException("no CPU samples or no runs in the window");
        }
        Map<Group, Double> ms = new EnumMap<>(Group.class);
        double total = 0;
        for (Group g : Group.values()) {
            ToLongFunction<Sample> cpu = s -> s.cpuNs().getOrDefault(g, 0L);
            double ns = at(window.toMs(), cpu) - at(window.fromMs(), cpu);
            ms.put(g, ns / 1e6 / runs);
            total += ns / 1e6 / runs;
        }
        double texts = at(window.toMs(), Sample::textsEmbedded) - at(window.fromMs(), Sample::textsEmbedded);
        double allocated = at(window.toMs(), Sample::ownAllocatedBytes) - at(window.fromMs(), Sample::ownAllocatedBytes);
        int inside = (int) samples.stream().filter(s -> s.atMs() > window.fromMs() && s.atMs() < window.toMs()).count();
        return new PerRun(ms, total, texts / runs, allocated / runs, inside);
    }

    /** A cumulative count (CPU ns, bytes, texts) at a moment, linear between the samples around it. */
    private double at(long ms, ToLongFunction<Sample> count) {
        Sample before = samples.get(0);
        for (Sample s : samples) {
            if (s.atMs() >= ms) {
                if (s.atMs() == before.atMs()) {
                    return count.applyAsLong(s);
                }
                double f = (ms - before.atMs()) / (double) (s.atMs() - before.atMs());
                long a = count.applyAsLong(before);
                long b = count.applyAsLong(s);
                return a + f * (b - a);
            }
            before = s;
        }
        return count.applyAsLong(samples.get(samples.size() - 1));
    }
}

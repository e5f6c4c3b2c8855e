package io.raglog.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on: cores, and how busy the machine was (it is shared with other builds). */
public final class Machine {

    private Machine() {}

    /** The 1-minute load average, or NaN where the system does not say. */
    public static double loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return Double.parseDouble(parts[0]);
        } catch (IOException | RuntimeException e) {
            return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    public static double usedHeapMb() {
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
    }

    /**
     * The heap still reachable: used heap right after a full collection ({@code System.gc()}, which G1 runs as a full,
     * stop-the-world collection unless the JVM was told otherwise). Unlike {@link #usedHeapMb()} it holds no garbage,
     * so it says what the JVM keeps, not how far the collector let the heap grow. It stops the world: call it only
     * outside a measured window.
     */
    public static double liveHeapMb() {
        System.gc();
        System.gc(); // a second time: what the first left to finalizers and reference queues
        return usedHeapMb();
    }

    /** The least of three readings of the live heap: a collection can leave some garbage for the next. */
    public static double leastLiveHeapMb() {
        double least = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            least = Math.min(least, liveHeapMb());
        }
        return least;
    }
}

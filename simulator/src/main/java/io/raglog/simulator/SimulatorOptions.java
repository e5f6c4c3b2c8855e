package io.raglog.simulator;

import java.nio.file.Path;
import java.time.Instant;

/**
 * What to simulate. Everything that shapes the output is here, so one options value and one seed always give the
 * same bytes.
 *
 * @param profiles {@code all}, a profile name, or a comma-separated list
 * @param faultRate share of runs that get one injected fault (natural faults come on top)
 * @param corpus a SQuAD 2.0 file or a JSONL corpus directory; null for the SQuAD file the project ships
 * @param arrivalRatePerSecond mean rate at which questions arrive (Poisson), across all profiles; with runs taking a
 *     few seconds, dozens are in flight at once
 * @param clockStart the simulated time of the first arrival
 * @param indexEvery every this many runs of a profile, one index-building batch is mixed in (0 for none)
 * @param paceRunsPerSecond when set, hold the wall clock to this many runs per second (steady load for benchmarks)
 */
public record SimulatorOptions(String profiles, int runs, long seed, double faultRate, Path corpus,
        double arrivalRatePerSecond, Instant clockStart, int indexEvery, Double paceRunsPerSecond) {

    public static final double DEFAULT_FAULT_RATE = 0.3;
    public static final double DEFAULT_ARRIVAL_RATE = 20.0;
    public static final Instant DEFAULT_CLOCK_START = Instant.parse("2026-01-01T00:00:00Z");
    public static final int DEFAULT_INDEX_EVERY = 50;

    public SimulatorOptions {
        if (runs < 0) {
            throw new IllegalArgumentException("runs must be >= 0, was " + runs);
        }
        if (faultRate < 0 || faultRate > 1) {
            throw new IllegalArgumentException("fault rate must be within [0, 1], was " + faultRate);
        }
        if (arrivalRatePerSecond <= 0) {
            throw new IllegalArgumentException("arrival rate must be > 0, was " + arrivalRatePerSecond);
        }
        if (indexEvery < 0) {
            throw new IllegalArgumentException("index-every must be >= 0, was " + indexEvery);
        }
        if (paceRunsPerSecond != null && paceRunsPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be > 0, was " + paceRunsPerSecond);
        }
        if (clockStart == null) {
            throw new IllegalArgumentException("clock start is required");
        }
    }

    public static SimulatorOptions of(String profiles, int runs, long seed) {
        return new SimulatorOptions(profiles, runs, seed, DEFAULT_FAULT_RATE, null, DEFAULT_ARRIVAL_RATE,
                DEFAULT_CLOCK_START, DEFAULT_INDEX_EVERY, null);
    }

    public SimulatorOptions withFaultRate(double rate) {
        return new SimulatorOptions(profiles, runs, seed, rate, corpus, arrivalRatePerSecond, clockStart, indexEvery,
                paceRunsPerSecond);
    }

    public SimulatorOptions withCorpus(Path path) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, path, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond);
    }

    /** Paces the wall clock and, so that event time keeps step with it, makes questions arrive at the same rate. */
    public SimulatorOptions withPace(double runsPerSecond) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, runsPerSecond, clockStart, indexEvery,
                runsPerSecond);
    }

    public SimulatorOptions withClockStart(Instant start) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, start, indexEvery,
                paceRunsPerSecond);
    }

    public SimulatorOptions withIndexEvery(int every) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart, every,
                paceRunsPerSecond);
    }
}

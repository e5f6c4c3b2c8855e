package io.raglog.simulator;

import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.session.SessionPlan;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

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
 * @param split the name of the question split drawn from ({@link ArticleSplits}), {@code custom} for a list of
 *     articles, null for every question of the corpus
 * @param articles the articles whose questions are drawn (the knowledge base stays the whole corpus); null for all
 * @param embeddingPlan embedding-model faults planted on top ({@link EmbeddingPlan}: a query model switched
 *     mid-stream, an index built with another model than its queries); {@link EmbeddingPlan#none()} by default
 * @param sessions users asking several questions in a session, re-asks among them ({@link SessionPlan});
 *     {@link SessionPlan#none()} by default, which gives the same bytes as before sessions existed
 */
public record SimulatorOptions(String profiles, int runs, long seed, double faultRate, Path corpus,
        double arrivalRatePerSecond, Instant clockStart, int indexEvery, Double paceRunsPerSecond, String split,
        List<String> articles, EmbeddingPlan embeddingPlan, SessionPlan sessions) {

    public static final String CUSTOM_SPLIT = "custom";

    public static final double DEFAULT_FAULT_RATE = 0.3;
    public static final double DEFAULT_ARRIVAL_RATE = 20.0;
    public static final Instant DEFAULT_CLOCK_START = Instant.parse("2026-01-01T00:00:00Z");
    public static final int DEFAULT_INDEX_EVERY = 50;

    public SimulatorOptions {
        if (embeddingPlan == null) {
            embeddingPlan = EmbeddingPlan.none();
        }
        if (sessions == null) {
            sessions = SessionPlan.none();
        }
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
        if (articles != null) {
            if (articles.isEmpty()) {
                throw new IllegalArgumentException("a split needs at least one article");
            }
            articles = List.copyOf(articles);
        }
    }

    /** Every question of the corpus (the shape callers built before splits existed). */
    public SimulatorOptions(String profiles, int runs, long seed, double faultRate, Path corpus,
            double arrivalRatePerSecond, Instant clockStart, int indexEvery, Double paceRunsPerSecond) {
        this(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart, indexEvery, paceRunsPerSecond,
                null, null, null, null);
    }

    public static SimulatorOptions of(String profiles, int runs, long seed) {
        return new SimulatorOptions(profiles, runs, seed, DEFAULT_FAULT_RATE, null, DEFAULT_ARRIVAL_RATE,
                DEFAULT_CLOCK_START, DEFAULT_INDEX_EVERY, null);
    }

    public SimulatorOptions withFaultRate(double rate) {
        return new SimulatorOptions(profiles, runs, seed, rate, corpus, arrivalRatePerSecond, clockStart, indexEvery,
                paceRunsPerSecond, split, articles, embeddingPlan, sessions);
    }

    public SimulatorOptions withCorpus(Path path) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, path, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond, split, articles, embeddingPlan, sessions);
    }

    /** Paces the wall clock and, so that event time keeps step with it, makes questions arrive at the same rate. */
    public SimulatorOptions withPace(double runsPerSecond) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, runsPerSecond, clockStart, indexEvery,
                runsPerSecond, split, articles, embeddingPlan, sessions);
    }

    public SimulatorOptions withClockStart(Instant start) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, start, indexEvery,
                paceRunsPerSecond, split, articles, embeddingPlan, sessions);
    }

    public SimulatorOptions withIndexEvery(int every) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart, every,
                paceRunsPerSecond, split, articles, embeddingPlan, sessions);
    }

    /** Draws questions only from the named split's articles ({@link ArticleSplits}: train, test, unseen, lockbox). */
    public SimulatorOptions withSplit(String name) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond, name, ArticleSplits.articles(name), embeddingPlan, sessions);
    }

    /** Draws questions only from these articles (titles as the corpus spells them, e.g. {@code Steam_engine}). */
    public SimulatorOptions withArticles(List<String> titles) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond, CUSTOM_SPLIT, titles, embeddingPlan, sessions);
    }

    /** Plants embedding-model faults ({@link EmbeddingPlan}) on top of the usual ones. */
    public SimulatorOptions withEmbeddingPlan(EmbeddingPlan plan) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond, split, articles, plan, sessions);
    }

    /** Users in sessions: several questions each, re-asks among them ({@link SessionPlan}); labels then say which. */
    public SimulatorOptions withSessions(SessionPlan plan) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, arrivalRatePerSecond, clockStart,
                indexEvery, paceRunsPerSecond, split, articles, embeddingPlan, plan);
    }

    /** Questions arriving at this mean rate across all profiles (Poisson). */
    public SimulatorOptions withArrivalRate(double perSecond) {
        return new SimulatorOptions(profiles, runs, seed, faultRate, corpus, perSecond, clockStart, indexEvery,
                paceRunsPerSecond, split, articles, embeddingPlan, sessions);
    }
}

package io.raglog.job;

import java.nio.file.Path;

/** Simulated pipeline traffic for the demo, written as the files a capture would leave. */
final class SampleTraffic {

    /** The files written; {@code otlp} is null when no profile emitted traces. */
    record Written(Path calls, Path otlp, Path labels) {}

    private SampleTraffic() {}

    static Written write(Path dir, int runs, long seed) throws Exception {
        throw new IllegalStateException("the simulator module is not wired in yet");
    }
}

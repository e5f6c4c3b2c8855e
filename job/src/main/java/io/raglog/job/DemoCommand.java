package io.raglog.job;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The embedded default: a real broker and local Flink in this process, simulated traffic, readable output. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run raglog end to end on its embedded default: in-process Kafka, local Flink, sample traffic.")
public final class DemoCommand implements Callable<Integer> {

    @Override
    public Integer call() throws Exception {
        return new Demo().run(System.out);
    }
}

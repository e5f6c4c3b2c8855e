package io.raglog.bench.micro;

import io.raglog.bench.e2e.LocalLlmEndpoint;
import io.raglog.llm.ChatReply;
import io.raglog.llm.LlmCheck;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.OpenAiProvider;
import io.raglog.llm.Prompts;
import io.raglog.schemas.Run;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A run's LLM judge requests sent through the real provider and async-http-client to a local endpoint that answers at
 * once, so what AHC does on the calling thread is measured ({@code RaglogBenchmarks.llmRequests} stops at the body).
 * gc.alloc.rate.norm counts every thread, the endpoint's and AHC's I/O threads too; each iteration also prints what
 * the calling thread alone allocated a run, which is what the job's task thread pays (issue #27).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LlmSendBenchmarks {

    @State(Scope.Thread)
    public static class Sender {
        RaglogBenchmarks.Traffic traffic = new RaglogBenchmarks.Traffic();
        LocalLlmEndpoint endpoint;
        Prompts prompts;
        OpenAiProvider provider;
        final CallerAllocation caller = new CallerAllocation();

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            traffic.setUp();
            endpoint = LocalLlmEndpoint.start(Duration.ZERO);
            LlmSettings settings = LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "openai",
                    LlmSettings.MODEL, "gpt-4o-mini", LlmSettings.BASE_URL, endpoint.baseUrl(),
                    LlmSettings.API_KEY, "sk-bench-not-a-secret"));
            prompts = new Prompts(settings.maxOutputTokens());
            provider = new OpenAiProvider(settings);
        }

        @Setup(Level.Iteration)
        public void startIteration() {
            caller.start();
        }

        @TearDown(Level.Iteration)
        public void endIteration() {
            caller.print();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            provider.close();
            endpoint.close();
        }
    }

    /** The bytes the benchmark's thread allocated over an iteration, per run sent. */
    static final class CallerAllocation {
        private final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private long startBytes;
        long runs;

        void start() {
            startBytes = threads.getCurrentThreadAllocatedBytes();
            runs = 0;
        }

        void print() {
            long bytes = threads.getCurrentThreadAllocatedBytes() - startBytes;
            System.out.printf("%ncalling thread: %.0f B a run (%d runs)%n", (double) bytes / Math.max(1, runs), runs);
        }
    }

    /** One run's checks sent at once, as the judge does, and their replies awaited. */
    @Benchmark
    public int llmSends(Sender s) {
        Run run = s.traffic.nextRun().run();
        List<CompletableFuture<ChatReply>> replies = new ArrayList<>(5);
        Prompts.RunPrompts prompts = s.prompts.forRun(run);
        for (LlmCheck check : LlmCheck.forRun(run, false)) {
            replies.add(s.provider.send(prompts.request(check)));
        }
        int chars = 0;
        for (CompletableFuture<ChatReply> reply : replies) {
            chars += reply.join().text().length();
        }
        s.caller.runs++;
        return chars;
    }
}

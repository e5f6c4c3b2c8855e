package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import java.util.List;

/** Fixtures for tests outside this package. */
public final class AssemblyFixtures {

    private AssemblyFixtures() {}

    public static List<ClassifiedCall> oneOfEachStage() {
        TestCalls a = TestCalls.run("bot", "trace-1", "alpha", 1);
        return List.of(a.rewrite(0, 0.4), a.embed(0.4, 0.5), a.retrieve(0.5, 0.6), a.rerank(0.6, 0.8),
                a.generate(0.8, 1.5));
    }
}

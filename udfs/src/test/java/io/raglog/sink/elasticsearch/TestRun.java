package io.raglog.sink.elasticsearch;

import java.util.ArrayList;
import java.util.List;

/** A flagged run shaped like the documents raglog writes to {@code raglog-faults}; public fields for Flink's POJO rules. */
public class TestRun {

    public String runId;
    public String pipeline;
    public String question;
    public String answer;
    public String[] flaggedStages;
    public String scoredAt;
    public double faultProbability;

    public TestRun() {}

    TestRun(String runId, String pipeline, String question, String answer, String[] flaggedStages, String scoredAt,
            double faultProbability) {
        this.runId = runId;
        this.pipeline = pipeline;
        this.question = question;
        this.answer = answer;
        this.flaggedStages = flaggedStages;
        this.scoredAt = scoredAt;
        this.faultProbability = faultProbability;
    }

    /** {@code n} runs with ids run-0000..; {@code edition} marks the answer, so a replay's overwrite is visible. */
    static List<TestRun> runs(int n, String edition) {
        List<TestRun> runs = new ArrayList<>();
        String[] pipelines = {"support-bot", "finance-qa", "docs-search"};
        String[][] stages = {{"rewrite"}, {"retrieve", "rerank"}, {"generate"}};
        for (int i = 0; i < n; i++) {
            runs.add(new TestRun(String.format("run-%04d", i), pipelines[i % 3],
                    "What was the operating cash flow of Acme in 2023, question " + i + "?",
                    "Acme's operating cash flow was $" + (100 + i) + "M (" + edition + ")",
                    stages[i % 3], String.format("2026-11-29T10:%02d:%02dZ", (i / 60) % 60, i % 60),
                    (i % 100) / 100.0));
        }
        return runs;
    }
}

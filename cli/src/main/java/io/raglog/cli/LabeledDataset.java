package io.raglog.cli;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.job.JobSettings;
import io.raglog.llm.LlmMode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.ScoringInput;
import io.raglog.training.LabeledRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Labeled runs for training and evaluation, with features made by the same code the job runs: the calls are
 * replayed through the topology and the checks, then joined with the labels by run id.
 */
public final class LabeledDataset {

    /** The runs that joined, and how many labels found no run or no features (reported, never hidden). */
    public record Joined(List<LabeledRun> runs, int labels, int unmatchedLabels, String judge) {
        public String describe() {
            return runs.size() + " labeled runs (" + labels + " labels, " + unmatchedLabels + " without a run)"
                    + ", features by " + judge;
        }

        /** Only the runs of one pipeline: its own traffic is what its thresholds should follow. */
        public Joined ofPipeline(String pipeline) {
            List<LabeledRun> own = runs.stream()
                    .filter(run -> pipeline.equals(run.input().features().pipeline()))
                    .toList();
            return new Joined(own, labels, unmatchedLabels, judge);
        }
    }

    private LabeledDataset() {}

    /** Replays the calls as the job configured by {@code job} would assemble and check them, then joins the labels. */
    public static Joined build(List<Path> calls, List<Path> otlp, Path labels, JobSettings job, Path workDir,
            int parallelism) throws Exception {
        Files.createDirectories(workDir);
        Path runsFile = workDir.resolve("runs.jsonl");
        Path featuresFile = workDir.resolve("features.jsonl");
        // Training and evaluation need every run's LLM features: tiered mode's figures are derived from them (a
        // skipped run saves the calls it made here), so the checks run untiered.
        ChecksSettings checks = job.checks();
        ChecksSettings untiered = checks.llm().tiered() ? checks.withLlm(checks.llm().withMode(LlmMode.DEFAULT)) : checks;
        ReplayCommand.replay(calls, otlp, new ReplayCommand.Outputs(runsFile, workDir.resolve("dlq.jsonl"),
                featuresFile, null, job.withChecks(untiered)), parallelism, job.topology());
        return join(runsFile, featuresFile, labels, checks.llm().judgeId());
    }

    static Joined join(Path runsFile, Path featuresFile, Path labelsFile, String judge) throws IOException {
        Map<String, Run> runs = new HashMap<>();
        for (String line : Files.readAllLines(runsFile)) {
            Run run = Json.read(line, Run.class);
            runs.put(run.runId(), run);
        }
        Map<String, RunFeatures> features = new HashMap<>();
        for (String line : Files.readAllLines(featuresFile)) {
            RunFeatures f = Json.read(line, RunFeatures.class);
            features.put(f.runId(), f);
        }
        List<LabeledRun> joined = new ArrayList<>();
        int labels = 0;
        int unmatched = 0;
        for (String line : Files.readAllLines(labelsFile)) {
            if (line.isBlank()) {
                continue;
            }
            labels++;
            Label label = Json.read(line, Label.class);
            Run run = runs.get(label.runId());
            RunFeatures f = features.get(label.runId());
            if (run == null || f == null) {
                unmatched++;
                continue;
            }
            joined.add(new LabeledRun(ScoringInput.of(run, f), label));
        }
        return new Joined(joined, labels, unmatched, judge);
    }
}

package io.raglog.simulator.pipeline;

import io.raglog.schemas.LabelStages;

/**
 * The ground truth of a run.
 *
 * @param root the fault the run's trouble started with (the injected one, else the first natural one); null when
 *     every stage was sound
 * @param origin {@code injected}, {@code natural}, or null
 */
public record Verdict(LabelStages stages, Fault root, String origin, boolean answerCorrect) {}

package io.raglog.simulator.pipeline;

/**
 * How a generator dresses an answer, whatever its content (sound or not, so the dress says nothing about the fault):
 * as it is, restated, with context sentences around it, with a citation, hedged, or as a list.
 */
public enum AnswerStyle { PLAIN, PARAPHRASED, VERBOSE, CITED, HEDGED, LIST }

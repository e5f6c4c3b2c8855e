package io.raglog.simulator.pipeline;

/** A fault a stage of one run suffered, with the sentence a person would write about it. */
public record Fault(FaultType type, String detail) {}

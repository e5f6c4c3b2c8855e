package io.raglog.simulator.pipeline;

/** A stage output changed by an injected fault, and the fault. */
public record Injection<T>(T output, Fault fault) {}

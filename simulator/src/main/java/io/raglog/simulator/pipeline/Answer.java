package io.raglog.simulator.pipeline;

/**
 * What the generator said.
 *
 * @param abstained it said it did not know
 * @param naturalFault what went wrong on its own, null when it answered as it should have
 */
public record Answer(String text, boolean abstained, Fault naturalFault) {}

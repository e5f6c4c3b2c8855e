/**
 * The checks stage of the job: rule, vector and LLM checks of each run, with the tier gate deciding in tiered mode
 * which runs get the LLM. It sits above {@code io.raglog.checks}, {@code io.raglog.llm} and {@code io.raglog.score}
 * because it wires the three together; below it they depend one way only (the LLM judge and the scorer read what the
 * checks define, the checks know neither).
 */
package io.raglog.checkstage;

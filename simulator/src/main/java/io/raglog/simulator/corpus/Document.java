package io.raglog.simulator.corpus;

/** One source document of the corpus (a SQuAD paragraph, or a line of {@code documents.jsonl}). */
public record Document(String docId, String title, String text) {}

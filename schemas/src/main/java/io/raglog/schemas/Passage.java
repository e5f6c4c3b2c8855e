package io.raglog.schemas;

/**
 * A passage as a stage saw it.
 *
 * @param id the store's id, or a content-derived id ({@code sha1:...}) when the store returned none
 * @param score the stage's own score (similarity, relevance), null when it gave none
 * @param rank 1-based position in that stage's output
 */
public record Passage(String id, String text, Double score, Integer rank) {

    public Passage withRank(int newRank) {
        return new Passage(id, text, score, newRank);
    }
}

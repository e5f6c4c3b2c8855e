package io.raglog.simulator.text;

/**
 * A tokenizer-ish count of word pieces, as a WordPiece/BPE vocabulary splits English: a common short word is one
 * piece, a longer word one more every four characters, a run of digits one piece per three, a punctuation mark one.
 * Enough to cut a text where a model's token budget really ends (often inside a word), not at a fixed word.
 */
public final class WordPieces {

    private WordPieces() {}

    public static int count(String text) {
        return new Cursor(text).piecesUntil(Integer.MAX_VALUE);
    }

    /** The longest prefix of {@code text} that fits in {@code budget} pieces (a word may be cut between pieces). */
    public static String cut(String text, int budget) {
        Cursor c = new Cursor(text);
        c.piecesUntil(budget);
        return text.substring(0, c.end).stripTrailing();
    }

    private static final class Cursor {
        private final String text;
        private int end;

        Cursor(String text) {
            this.text = text;
        }

        /** Walks pieces until {@code budget} is spent; {@code end} is where the last whole piece ends. */
        int piecesUntil(int budget) {
            int pieces = 0;
            int i = 0;
            int n = text.length();
            while (i < n) {
                char ch = text.charAt(i);
                if (Character.isWhitespace(ch)) {
                    i++;
                    continue;
                }
                int start = i;
                if (Character.isLetter(ch)) {
                    while (i < n && Character.isLetter(text.charAt(i))) {
                        i++;
                    }
                    // first piece up to 5 letters, then one per 4: "Normandy" = Norma|ndy
                    int at = start;
                    int first = Math.min(i, start + 5);
                    if (pieces + 1 > budget) {
                        return pieces;
                    }
                    pieces++;
                    end = first;
                    at = first;
                    while (at < i) {
                        if (pieces + 1 > budget) {
                            return pieces;
                        }
                        pieces++;
                        at = Math.min(i, at + 4);
                        end = at;
                    }
                } else if (Character.isDigit(ch)) {
                    while (i < n && Character.isDigit(text.charAt(i))) {
                        i++;
                    }
                    for (int at = start; at < i; at = Math.min(i, at + 3)) {
                        if (pieces + 1 > budget) {
                            return pieces;
                        }
                        pieces++;
                        end = Math.min(i, at + 3);
                    }
                } else {
                    if (pieces + 1 > budget) {
                        return pieces;
                    }
                    pieces++;
                    i++;
                    end = i;
                }
            }
            return pieces;
        }
    }
}

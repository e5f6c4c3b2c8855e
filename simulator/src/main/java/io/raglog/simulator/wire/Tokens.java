package io.raglog.simulator.wire;

import java.util.ArrayList;
import java.util.List;

/** Token counts and streamed pieces, approximated the way BPE tokenisers behave on English (~4 characters a token). */
public final class Tokens {

    private Tokens() {}

    public static int count(String text) {
        return Math.max(1, (int) Math.ceil(text.length() / 4.0));
    }

    /** Chat prompt tokens: the texts plus a few tokens of framing per message, as chat templates add. */
    public static int promptTokens(List<String> messageContents) {
        int total = 3;
        for (String m : messageContents) {
            total += 4 + count(m);
        }
        return total;
    }

    /** The pieces a streamed reply arrives in: a word with its leading space, or one punctuation mark. */
    public static List<String> streamPieces(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            int start = i;
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i < n && Character.isLetterOrDigit(text.charAt(i))) {
                while (i < n && Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
            } else if (i < n) {
                i++;
            }
            out.add(text.substring(start, i));
        }
        return out;
    }
}

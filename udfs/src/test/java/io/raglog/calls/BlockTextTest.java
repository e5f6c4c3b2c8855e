package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockText} trims a context block as a span of the message rather than as copies (issue #27); the block's text
 * is what the passages, the question's search and the instructions are read from, so it must be the very string the
 * copies gave: held here to {@link #reference}, the code as it was, on random texts made of the pieces the trim looks
 * at (separator lines, blank lines, instruction paragraphs, every line terminator, whitespace) around random spans
 * (that split no surrogate pair, as {@link ContextBlocks}' bounds never do).
 */
public class BlockTextTest {

    private static final String[] PIECES = {"\n", "\n\n", "\r\n", "\r", "\u2028", "\u0085", " ", "\t", "  \n",
        "---", "-----", "===", "***", "___", "~~~", "###", "--", " --- ", "\t===\t", "Context", "passage one",
        "Answer the question.", "Use only the context above.", "Do not make things up", "please answer briefly",
        "Now", "Remember: cite", "answering", "x", "é", "😀", "\u00A0", "\u2003", ":"};

    /** The trim before spans: the stripped substring, then a copy for each step. */
    static String reference(String text, int start, int end) {
        int from = start;
        int to = end;
        while (from < to && Character.isWhitespace(text.charAt(from))) {
            from++;
        }
        while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
            to--;
        }
        return referenceTrimTrailingInstructions(referenceTrimSeparators(text.substring(from, to)));
    }

    private static String referenceTrimTrailingInstructions(String block) {
        String out = block;
        int cut;
        while ((cut = out.lastIndexOf("\n\n")) > 0
                && PromptPatterns.INSTRUCTION_PARAGRAPH.matcher(out.substring(cut).strip()).matches()) {
            out = referenceTrimSeparators(out.substring(0, cut));
        }
        return out;
    }

    private static String referenceTrimSeparators(String s) {
        String out = s.strip();
        boolean changed = true;
        while (changed && !out.isEmpty()) {
            changed = false;
            Matcher lead = PromptPatterns.SEPARATOR_LINE.matcher(out);
            if (lead.lookingAt()) {
                out = out.substring(lead.end()).strip();
                changed = true;
            }
            int lastNl = out.lastIndexOf('\n');
            String lastLine = out.substring(lastNl + 1);
            if (PromptPatterns.SEPARATOR_LINE.matcher(lastLine).matches()) {
                out = (lastNl < 0 ? "" : out.substring(0, lastNl)).strip();
                changed = true;
            }
        }
        return out;
    }

    @Test
    void shouldTrimAsTheCopiesDidOnRandomTextsAndSpans() {
        SplittableRandom random = new SplittableRandom(31);
        for (int i = 0; i < 100_000; i++) {
            StringBuilder sb = new StringBuilder();
            int pieces = random.nextInt(0, 30);
            for (int k = 0; k < pieces; k++) {
                sb.append(PIECES[random.nextInt(PIECES.length)]);
            }
            String text = sb.toString();
            int start = notInAPair(text, random.nextInt(0, text.length() + 1));
            int end = notInAPair(text, random.nextInt(start, text.length() + 1));
            assertThat(BlockText.of(text, start, end)).as("case %d: [%d, %d) of %s", i, start, end, text)
                    .isEqualTo(reference(text, start, end));
        }
    }

    /** The place, or the one after it when it splits a surrogate pair: a block's bounds never do. */
    private static int notInAPair(String text, int at) {
        return at > 0 && at < text.length() && Character.isSurrogatePair(text.charAt(at - 1), text.charAt(at))
                ? at + 1 : at;
    }

    @Test
    void shouldTrimTheShapesTemplatesMake() {
        String[] texts = {"---\nA passage.\n---", "A.\n\n---\n\nAnswer the question.", "\n\n===\n",
            "A passage.\n\nUse only the context above.\n\n---", "Context: a\n\n###\n\nb\n\nDo not guess.\n\n"};
        for (String text : texts) {
            for (int start = 0; start <= text.length(); start++) {
                for (int end = start; end <= text.length(); end++) {
                    assertThat(BlockText.of(text, start, end)).isEqualTo(reference(text, start, end));
                }
            }
        }
    }
}

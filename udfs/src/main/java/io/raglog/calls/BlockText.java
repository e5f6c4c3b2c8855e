package io.raglog.calls;

import java.util.regex.Matcher;

/**
 * A context block's text as {@link ContextBlocks} keeps it: a span of the message stripped of whitespace, of separator
 * lines at either end and of short instruction paragraphs a template put after the block, copied out once. Trimmed as
 * copies (a substring, then a stripped substring for each separator or paragraph dropped and for each last paragraph
 * tried), the block's copies were 4.4 KB a simulated run (JFR of {@code ./raglog bench --own-cpu-only}); here the
 * span's two ends move over the message and the patterns are matched on a region of it, which they see as the
 * substring they were matched on before (a region's bounds anchor {@code ^} and {@code $} and are opaque to {@code
 * \b}). With {@code WellFormedUtf8}, JMH {@code decodeAndClassifyCall} ({@code -prof gc}) went from 17,080 to 16,529
 * B/op, of which about 500 are these copies. {@code BlockTextTest} holds it to the copying trim on random texts.
 */
final class BlockText {

    private final String text;
    private int from;
    private int to;

    private BlockText(String text, int from, int to) {
        this.text = text;
        this.from = from;
        this.to = to;
    }

    /**
     * The trimmed text of {@code text}'s span {@code [from, to)}, empty when nothing is left. Neither bound may split a
     * surrogate pair (a pattern's character at the region's end would be read whole, past it): the bounds
     * {@link ContextBlocks} passes are line starts, the ends of matches of ASCII delimiters, and the text's ends.
     */
    static String of(String text, int from, int to) {
        BlockText block = new BlockText(text, from, to);
        block.trimSeparators();
        block.trimTrailingInstructions();
        return text.substring(block.from, block.to);
    }

    /** Drops short instruction paragraphs a template put between the block and its question label. */
    private void trimTrailingInstructions() {
        int cut;
        while ((cut = text.lastIndexOf("\n\n", to - 2)) > from && isInstruction(cut)) {
            to = cut;
            trimSeparators();
        }
    }

    /** Whether the paragraph from {@code cut} to the end, stripped, is an instruction. */
    private boolean isInstruction(int cut) {
        int start = cut;
        int end = to;
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return PromptPatterns.INSTRUCTION_PARAGRAPH.matcher(text).region(start, end).matches();
    }

    /** Strips the span, then drops separator lines at its start and end (stripping again) while there are any. */
    private void trimSeparators() {
        strip();
        boolean changed = true;
        while (changed && from < to) {
            changed = false;
            Matcher lead = PromptPatterns.SEPARATOR_LINE.matcher(text).region(from, to);
            if (lead.lookingAt()) {
                from = lead.end();
                strip();
                changed = true;
            }
            int lastNewline = text.lastIndexOf('\n', to - 1);
            int lastLine = lastNewline < from ? from : lastNewline + 1;
            if (PromptPatterns.SEPARATOR_LINE.matcher(text).region(lastLine, to).matches()) {
                to = lastNewline < from ? from : lastNewline;
                strip();
                changed = true;
            }
        }
    }

    /** {@code String.strip} on the span: whitespace is in the Basic Multilingual Plane, so a char is a code point. */
    private void strip() {
        while (from < to && Character.isWhitespace(text.charAt(from))) {
            from++;
        }
        while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
            to--;
        }
    }
}

package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the context block of a generator prompt in one message's text, and splits it into passages. The finders
 * run from the most explicit shape to the least: XML wrappers, a "Context:" label, a block between separator
 * lines announced as context (LlamaIndex), an instruction that announces the block ("Use the following pieces of
 * context..."), numbered passages. A label goes before separators because templates that label their block may
 * also separate its passages with rules ("Context: {a}\n\n###\n\n{b}").
 */
final class ContextBlocks {

    /** Where the block sits in the message, so the question can be looked for outside it. */
    record Block(int start, int end, String text, List<String> passages) {}

    /** How far before a separator line the announcement ("Context information is below.") may be. */
    private static final int ANNOUNCEMENT_WINDOW = 300;

    private ContextBlocks() {}

    static Block find(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        LineStarts lines = new LineStarts(text);
        Block b = xml(text);
        if (b == null) {
            b = labelled(lines);
        }
        if (b == null) {
            b = betweenSeparators(lines);
        }
        if (b == null) {
            b = announced(lines);
        }
        if (b == null) {
            b = numbered(lines);
        }
        return b;
    }

    private static Block xml(String text) {
        if (!PromptPatterns.mayHoldElements(text)) {
            return null;
        }
        Matcher wrapper = PromptPatterns.XML_CONTEXT.matcher(text);
        while (wrapper.find()) {
            if (!wrapper.group(2).isBlank()) {
                return block(text, wrapper.start(2), wrapper.end(2));
            }
        }
        Matcher passage = PromptPatterns.XML_PASSAGE.matcher(text);
        int start = -1;
        int end = -1;
        while (passage.find()) {
            start = start < 0 ? passage.start() : start;
            end = passage.end();
        }
        return start < 0 ? null : block(text, start, end);
    }

    /**
     * LlamaIndex: "Context information is below.\n---------------------\n{context}\n---------------------\n...";
     * LangChain chat QA: "...don't try to make up an answer.\n----------------\n{context}". The block ends at the
     * last separator identical to the opening one (passages may be separated by other rules), else at the question.
     */
    private static Block betweenSeparators(LineStarts lines) {
        String text = lines.text();
        LineStarts.Matches sep = lines.matches(PromptPatterns.SEPARATOR_LINE, 0);
        while (sep.find()) {
            String before = text.substring(Math.max(0, sep.start() - ANNOUNCEMENT_WINDOW), sep.start());
            if (!mentionsMaterial(before)) {
                continue;
            }
            String line = sep.group().strip();
            int start = sep.end();
            int end = -1;
            LineStarts.Matches closing = lines.matches(PromptPatterns.SEPARATOR_LINE, start);
            while (closing.find()) {
                if (closing.group().strip().equals(line)) {
                    end = closing.start();
                }
            }
            if (end < 0) {
                end = endOfBlock(lines, start);
            }
            Block b = block(text, start, end);
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    private static final Pattern MATERIAL =
            Pattern.compile("(?i)\\b(?:context|information|documents?|passages?|sources?|excerpts?|below)\\b");

    private static boolean mentionsMaterial(String text) {
        return MATERIAL.matcher(text).find();
    }

    /** "Context: ..." up to the template's question (or answer) label. */
    private static Block labelled(LineStarts lines) {
        LineStarts.Matches label = lines.matches(PromptPatterns.CONTEXT_LABEL, 0);
        while (label.find()) {
            Block b = block(lines.text(), label.end(), endOfBlock(lines, label.end()));
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    /**
     * An instruction that announces the material. The block starts after the instruction's line when that line
     * ends with a colon ("based only on the following context:\n{context}"), else after its paragraph
     * ("...keep the answer concise.\n\n{context}"). "...the documents above" puts the block before it.
     */
    private static Block announced(LineStarts lines) {
        String text = lines.text();
        LeadWords.Matches m = PromptPatterns.CONTEXT_INSTRUCTION_LEADS.matches(text);
        while (m.find()) {
            int lineEnd = indexOrEnd(text, "\n", m.end());
            int start;
            String restOfLine = text.substring(m.end(), lineEnd).strip();
            if (restOfLine.isEmpty() || restOfLine.endsWith(":")) {
                start = lineEnd;
            } else {
                int paragraphEnd = text.indexOf("\n\n", m.end());
                if (paragraphEnd < 0) {
                    continue;
                }
                start = paragraphEnd;
            }
            Block b = block(text, start, endOfBlock(lines, start));
            if (b != null) {
                return b;
            }
        }
        LeadWords.Matches above = PromptPatterns.CONTEXT_ABOVE_LEADS.matches(text);
        if (above.find()) {
            int paragraphStart = text.lastIndexOf("\n\n", above.start());
            if (paragraphStart > 0) {
                return block(text, 0, paragraphStart);
            }
        }
        return null;
    }

    /** Two or more numbered passages ("[1] ...", "Document 2:"), up to the template's question. */
    private static Block numbered(LineStarts lines) {
        String text = lines.text();
        LineStarts.Matches m = lines.matches(PromptPatterns.PASSAGE_MARKER, 0);
        int first = -1;
        int lastMarker = -1;
        int count = 0;
        while (m.find()) {
            first = first < 0 ? m.start() : first;
            lastMarker = m.end();
            count++;
        }
        if (count < 2) {
            return null;
        }
        int end = endOfBlock(lines, first);
        if (end == text.length()) {
            // No template label after the passages: the last one ends at its paragraph, what follows is the ask.
            int blank = text.indexOf("\n\n", lastMarker);
            end = blank < 0 ? end : blank;
        }
        return block(text, first, end);
    }

    /**
     * Where a block that starts at {@code start} ends: at the last question label after it (a passage may itself
     * hold "Question:" lines, the template's comes last), else at the last answer label, else at the end.
     */
    private static int endOfBlock(LineStarts lines, int start) {
        int end = lastLabel(PromptPatterns.QUESTION_LABEL, lines, start);
        if (end < 0) {
            end = lastLabel(PromptPatterns.ANSWER_LABEL, lines, start);
        }
        return end < 0 ? lines.text().length() : end;
    }

    private static int lastLabel(Pattern label, LineStarts lines, int from) {
        LineStarts.Matches m = lines.matches(label, from);
        int last = -1;
        while (m.find()) {
            last = m.start();
        }
        return last;
    }

    private static Block block(String text, int start, int end) {
        if (start < 0 || end <= start) {
            return null;
        }
        // Trimmed as a span and copied once: copied at each step, it was most of prompt reading's allocation.
        String trimmed = BlockText.of(text, start, end);
        if (trimmed.isBlank()) {
            return null;
        }
        // Where it first occurs from the block's start, as in the block's own text: it lies within the block.
        int offset = text.indexOf(trimmed, start) - start;
        return new Block(start + Math.max(0, offset), start + Math.max(0, offset) + trimmed.length(), trimmed,
                split(trimmed));
    }

    /**
     * Splits a block into passages, best effort: passage elements, numbered markers, "Content:" entries, separator
     * lines, else blank lines (LangChain joins documents with "\n\n"), folding LlamaIndex's metadata lines into the
     * text they describe.
     */
    static List<String> split(String block) {
        LineStarts lines = new LineStarts(block);
        List<String> parts = xmlPassages(block);
        if (parts.isEmpty()) {
            parts = atMarkers(lines, PromptPatterns.PASSAGE_MARKER);
        }
        if (parts.isEmpty()) {
            parts = atMarkers(lines, PromptPatterns.CONTENT_MARKER);
        }
        if (parts.isEmpty() && lines.matches(PromptPatterns.SEPARATOR_LINE, 0).find()) {
            parts = nonBlank(PromptPatterns.SEPARATOR_LINE.split(block));
        }
        if (parts.isEmpty()) {
            parts = paragraphs(block);
        }
        List<String> cleaned = new ArrayList<>();
        for (String p : parts) {
            String c = dropSourceLine(p).strip();
            if (!c.isEmpty()) {
                cleaned.add(c);
            }
        }
        return List.copyOf(cleaned);
    }

    private static final Pattern XML_METADATA = Pattern.compile("(?is)<(source|title|metadata)>.*?</\\1>");

    private static List<String> xmlPassages(String block) {
        if (!PromptPatterns.mayHoldElements(block)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Matcher m = PromptPatterns.XML_PASSAGE.matcher(block);
        while (m.find()) {
            Matcher inner = PromptPatterns.XML_PASSAGE_TEXT.matcher(m.group(2));
            out.add(inner.find() ? inner.group(2) : XML_METADATA.matcher(m.group(2)).replaceAll(""));
        }
        return out;
    }

    private static List<String> atMarkers(LineStarts lines, Pattern marker) {
        String block = lines.text();
        LineStarts.Matches m = lines.matches(marker, 0);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        // One marker is a passage's only where it opens the block (a context of one numbered passage: "[1] ..."); a
        // marker-like line inside a passage's text is the text's own
        if (spans.isEmpty() || spans.size() == 1 && !block.substring(0, spans.get(0)[0]).isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            int textEnd = i + 1 < spans.size() ? spans.get(i + 1)[0] : block.length();
            out.add(block.substring(spans.get(i)[1], textEnd));
        }
        return out;
    }

    private static List<String> paragraphs(String block) {
        List<String> paras = Paragraphs.split(block);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < paras.size(); i++) {
            String p = paras.get(i).strip();
            if (p.isEmpty()) {
                continue;
            }
            if (isMetadata(p) && i + 1 < paras.size()) {
                continue; // LlamaIndex's "file_path: ..." header: the text follows in the next paragraph
            }
            out.add(p);
        }
        return out;
    }

    private static boolean isMetadata(String paragraph) {
        // A metadata line has its colon within its first 41 characters: a passage's first line rarely does, and is
        // told apart without splitting the paragraph into lines (the paragraph is stripped: its first line starts it).
        int colon = paragraph.indexOf(':');
        int newline = paragraph.indexOf('\n');
        if (colon < 0 || colon > 40 || (newline >= 0 && colon > newline)) {
            return false;
        }
        String[] lines = PromptPatterns.NEWLINE.split(paragraph);
        if (lines.length > 6) {
            return false;
        }
        for (String line : lines) {
            String stripped = line.strip();
            if (!PromptPatterns.METADATA_LINE.matcher(stripped).matches()
                    || PromptPatterns.WHITESPACE.split(stripped).length > 8) {
                return false;
            }
        }
        return true;
    }

    /** "Source: https://..." trailing a passage names where it came from; it is not passage text. */
    private static String dropSourceLine(String passage) {
        // The line must follow a newline: most passages are one line, and the regex tried each of their characters.
        return passage.indexOf('\n') < 0 ? passage : SOURCE_LINE.matcher(passage).replaceAll("");
    }

    /** Compiled once: String.replaceAll compiled it for every passage of every prompt (JFR). */
    private static final Pattern SOURCE_LINE = Pattern.compile("(?im)\\n[ \\t]*source[ \\t]*:[^\\n]*$");

    private static List<String> nonBlank(String[] parts) {
        List<String> out = new ArrayList<>();
        for (String p : parts) {
            if (!p.isBlank()) {
                out.add(p);
            }
        }
        return out;
    }

    private static int indexOrEnd(String text, String needle, int from) {
        int i = text.indexOf(needle, from);
        return i < 0 ? text.length() : i;
    }
}

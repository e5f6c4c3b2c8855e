package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


// A verbatim copy of the prompt reader as it was before its speed work (main at 1cd143c), kept as the reference that
// PromptAnatomyUnchangedTest compares the live code with. Only the class names differ.

/**
 * Finds the context block of a generator prompt in one message's text, and splits it into passages. The finders
 * run from the most explicit shape to the least: XML wrappers, a "Context:" label, a block between separator
 * lines announced as context (LlamaIndex), an instruction that announces the block ("Use the following pieces of
 * context..."), numbered passages. A label goes before separators because templates that label their block may
 * also separate its passages with rules ("Context: {a}\n\n###\n\n{b}").
 */
final class ReferenceContextBlocks {

    /** Where the block sits in the message, so the question can be looked for outside it. */
    record Block(int start, int end, String text, List<String> passages) {}

    /** How far before a separator line the announcement ("Context information is below.") may be. */
    private static final int ANNOUNCEMENT_WINDOW = 300;

    private ReferenceContextBlocks() {}

    static Block find(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Block b = xml(text);
        if (b == null) {
            b = labelled(text);
        }
        if (b == null) {
            b = betweenSeparators(text);
        }
        if (b == null) {
            b = announced(text);
        }
        if (b == null) {
            b = numbered(text);
        }
        return b;
    }

    private static Block xml(String text) {
        Matcher wrapper = ReferencePromptPatterns.XML_CONTEXT.matcher(text);
        while (wrapper.find()) {
            if (!wrapper.group(2).isBlank()) {
                return block(text, wrapper.start(2), wrapper.end(2));
            }
        }
        Matcher passage = ReferencePromptPatterns.XML_PASSAGE.matcher(text);
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
    private static Block betweenSeparators(String text) {
        Matcher sep = ReferencePromptPatterns.SEPARATOR_LINE.matcher(text);
        while (sep.find()) {
            String before = text.substring(Math.max(0, sep.start() - ANNOUNCEMENT_WINDOW), sep.start());
            if (!mentionsMaterial(before)) {
                continue;
            }
            String line = sep.group().strip();
            int start = sep.end();
            int end = -1;
            Matcher closing = ReferencePromptPatterns.SEPARATOR_LINE.matcher(text);
            closing.region(start, text.length());
            while (closing.find()) {
                if (closing.group().strip().equals(line)) {
                    end = closing.start();
                }
            }
            if (end < 0) {
                end = endOfBlock(text, start);
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
    private static Block labelled(String text) {
        Matcher label = ReferencePromptPatterns.CONTEXT_LABEL.matcher(text);
        while (label.find()) {
            Block b = block(text, label.end(), endOfBlock(text, label.end()));
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
    private static Block announced(String text) {
        Matcher m = ReferencePromptPatterns.CONTEXT_INSTRUCTION.matcher(text);
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
            Block b = block(text, start, endOfBlock(text, start));
            if (b != null) {
                return b;
            }
        }
        Matcher above = ReferencePromptPatterns.CONTEXT_ABOVE.matcher(text);
        if (above.find()) {
            int paragraphStart = text.lastIndexOf("\n\n", above.start());
            if (paragraphStart > 0) {
                return block(text, 0, paragraphStart);
            }
        }
        return null;
    }

    /** Two or more numbered passages ("[1] ...", "Document 2:"), up to the template's question. */
    private static Block numbered(String text) {
        Matcher m = ReferencePromptPatterns.PASSAGE_MARKER.matcher(text);
        int first = -1;
        int count = 0;
        while (m.find()) {
            first = first < 0 ? m.start() : first;
            count++;
        }
        if (count < 2) {
            return null;
        }
        int end = endOfBlock(text, first);
        if (end == text.length()) {
            // No template label after the passages: the last one ends at its paragraph, what follows is the ask.
            m.reset();
            int lastMarker = first;
            while (m.find()) {
                lastMarker = m.end();
            }
            int blank = text.indexOf("\n\n", lastMarker);
            end = blank < 0 ? end : blank;
        }
        return block(text, first, end);
    }

    /**
     * Where a block that starts at {@code start} ends: at the last question label after it (a passage may itself
     * hold "Question:" lines, the template's comes last), else at the last answer label, else at the end.
     */
    static int endOfBlock(String text, int start) {
        int end = lastLabel(ReferencePromptPatterns.QUESTION_LABEL, text, start);
        if (end < 0) {
            end = lastLabel(ReferencePromptPatterns.ANSWER_LABEL, text, start);
        }
        return end < 0 ? text.length() : end;
    }

    private static int lastLabel(Pattern label, String text, int from) {
        Matcher m = label.matcher(text);
        m.region(from, text.length());
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
        String raw = text.substring(start, end);
        String trimmed = trimTrailingInstructions(trimSeparators(raw));
        if (trimmed.isBlank()) {
            return null;
        }
        int offset = raw.indexOf(trimmed);
        return new Block(start + Math.max(0, offset), start + Math.max(0, offset) + trimmed.length(), trimmed,
                split(trimmed));
    }

    /** Drops short instruction paragraphs a template put between the block and its question label. */
    private static String trimTrailingInstructions(String block) {
        String out = block;
        int cut;
        while ((cut = out.lastIndexOf("\n\n")) > 0
                && ReferencePromptPatterns.INSTRUCTION_PARAGRAPH.matcher(out.substring(cut).strip()).matches()) {
            out = trimSeparators(out.substring(0, cut));
        }
        return out;
    }

    private static String trimSeparators(String s) {
        String out = s.strip();
        boolean changed = true;
        while (changed && !out.isEmpty()) {
            changed = false;
            Matcher lead = ReferencePromptPatterns.SEPARATOR_LINE.matcher(out);
            if (lead.lookingAt()) {
                out = out.substring(lead.end()).strip();
                changed = true;
            }
            int lastNl = out.lastIndexOf('\n');
            String lastLine = out.substring(lastNl + 1);
            if (ReferencePromptPatterns.SEPARATOR_LINE.matcher(lastLine).matches()) {
                out = (lastNl < 0 ? "" : out.substring(0, lastNl)).strip();
                changed = true;
            }
        }
        return out;
    }

    /**
     * Splits a block into passages, best effort: passage elements, numbered markers, "Content:" entries, separator
     * lines, else blank lines (LangChain joins documents with "\n\n"), folding LlamaIndex's metadata lines into the
     * text they describe.
     */
    static List<String> split(String block) {
        List<String> parts = xmlPassages(block);
        if (parts.isEmpty()) {
            parts = atMarkers(block, ReferencePromptPatterns.PASSAGE_MARKER);
        }
        if (parts.isEmpty()) {
            parts = atMarkers(block, ReferencePromptPatterns.CONTENT_MARKER);
        }
        if (parts.isEmpty() && ReferencePromptPatterns.SEPARATOR_LINE.matcher(block).find()) {
            parts = nonBlank(ReferencePromptPatterns.SEPARATOR_LINE.split(block));
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
        List<String> out = new ArrayList<>();
        Matcher m = ReferencePromptPatterns.XML_PASSAGE.matcher(block);
        while (m.find()) {
            Matcher inner = ReferencePromptPatterns.XML_PASSAGE_TEXT.matcher(m.group(2));
            out.add(inner.find() ? inner.group(2) : XML_METADATA.matcher(m.group(2)).replaceAll(""));
        }
        return out;
    }

    private static List<String> atMarkers(String block, Pattern marker) {
        Matcher m = marker.matcher(block);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        // the one change in meaning since the copy: a single marker opening the block is a passage's (the reader's
        // own comment says why)
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
        String[] paras = ReferencePromptPatterns.BLANK_LINE.split(block);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < paras.length; i++) {
            String p = paras[i].strip();
            if (p.isEmpty()) {
                continue;
            }
            if (isMetadata(p) && i + 1 < paras.length) {
                continue; // LlamaIndex's "file_path: ..." header: the text follows in the next paragraph
            }
            out.add(p);
        }
        return out;
    }

    private static boolean isMetadata(String paragraph) {
        String[] lines = ReferencePromptPatterns.NEWLINE.split(paragraph);
        if (lines.length > 6) {
            return false;
        }
        for (String line : lines) {
            String stripped = line.strip();
            if (!ReferencePromptPatterns.METADATA_LINE.matcher(stripped).matches()
                    || ReferencePromptPatterns.WHITESPACE.split(stripped).length > 8) {
                return false;
            }
        }
        return true;
    }

    /** "Source: https://..." trailing a passage names where it came from; it is not passage text. */
    private static String dropSourceLine(String passage) {
        return SOURCE_LINE.matcher(passage).replaceAll("");
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

package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which passages a generator actually saw. Passages raglog already knows (the reranker's output, else what was
 * retrieved) are found in the prompt verbatim, in prompt order; the prompt reader's own split fills in passages that
 * came from nowhere logged. A known passage cut short by the pipeline's context budget is in the context with the
 * part that reached the prompt (its opening, at least {@link PromptMatches#MIN_KEPT_CHARS} characters); one a
 * contextual compressor extracted is there under its own id, as the prompt holds the extract; one the prompt holds
 * within more of its document (a sentence window, a parent document) is there as that; one dropped is missing.
 */
final class ContextPassages {

    private ContextPassages() {}

    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, NormalisedTexts norm) {
        return inPrompt(generator, known, PromptMatches.find(norm.prompt(generator), known,
                generator.contextPassages(), norm), norm);
    }

    /** The same from the passages' matches in the prompt, found once for the run ({@link PromptMatches}). */
    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, List<PromptMatches.Match> matches,
            NormalisedTexts norm) {
        List<Placed> placed = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        boolean anyExtracted = false;
        for (int i = 0; i < known.size(); i++) {
            PromptMatches.Match m = matches.get(i);
            if (!m.reached() || m.extracted()) {
                anyExtracted |= m.extracted();
                continue;
            }
            Passage p = known.get(i);
            String normalised = norm.text(p.text());
            seen.add(m.whole() ? normalised : normalised.substring(0, m.kept()));
            String text = m.whole() ? p.text() : PassageFate.keptPart(p.text(), m.kept(), m.length()).strip();
            placed.add(new Placed(m.at(), p.id(), text, p.score(), m.whole()));
        }
        // the prompt reader's blocks an extracted passage's pieces fall in are that passage's, as the compressor
        // wrote them into the prompt
        boolean[] placedExtracts = anyExtracted ? new boolean[known.size()] : null;
        if (generator.contextPassages() != null) {
            String prompt = null;
            for (String text : generator.contextPassages()) {
                String normalised = norm.text(text);
                if (normalised.isEmpty() || seen.contains(normalised)) {
                    continue;
                }
                if (coveredByKnown(normalised, seen)) {
                    widen(placed, normalised, text, norm);
                    continue;
                }
                seen.add(normalised);
                if (prompt == null) {
                    prompt = norm.prompt(generator);
                }
                // where it sits among the known ones: a prompt mixing passages raglog knows with extracts or
                // passages from nowhere logged keeps its own order
                int at = prompt.indexOf(normalised);
                int source = at < 0 || !anyExtracted ? -1 : extractedInto(at, at + normalised.length(), matches);
                if (source >= 0) {
                    placedExtracts[source] = true;
                    Passage p = known.get(source);
                    placed.add(new Placed(at, p.id(), text, p.score(), false));
                } else {
                    placed.add(new Placed(at < 0 ? Integer.MAX_VALUE : at, Texts.normalisedContentId(normalised),
                            text, null, false));
                }
            }
        }
        for (int i = 0; anyExtracted && i < known.size(); i++) {
            if (matches.get(i).extracted() && !placedExtracts[i]) {
                // the reader did not split the pieces out: they stand as the passage's own text has them
                Passage p = known.get(i);
                placed.add(new Placed(matches.get(i).at(), p.id(), pieces(p.text(), matches.get(i)), p.score(),
                        false));
            }
        }
        placed.sort(Comparator.comparingInt(Placed::at)); // stable: passages not found keep the reader's order, last
        List<Passage> context = new ArrayList<>(placed.size());
        for (Placed p : placed) {
            context.add(new Passage(p.id(), p.text(), p.score(), context.size() + 1));
        }
        return context;
    }

    /** The passage whose extracts a block of the prompt at [start, end) holds a piece of; -1 when none. */
    private static int extractedInto(int start, int end, List<PromptMatches.Match> matches) {
        for (int i = 0; i < matches.size(); i++) {
            for (PromptMatches.Piece piece : matches.get(i).extracts()) {
                if (piece.at() < end && piece.at() + piece.length() > start) {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * An extracted passage's pieces from its text as logged, joined by a space: each the same share of the text, from
     * the same share on, as it is of the normalised text (as a cut passage's opening is read, {@link PassageFate}).
     */
    static String pieces(String text, PromptMatches.Match m) {
        StringBuilder out = new StringBuilder();
        for (PromptMatches.Piece piece : m.extracts()) {
            int from = (int) Math.round((double) piece.from() / m.length() * text.length());
            int to = (int) Math.round((double) (piece.from() + piece.length()) / m.length() * text.length());
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(text, Math.min(from, text.length()), Math.min(to, text.length()));
        }
        return out.toString().strip();
    }

    /**
     * A block of the prompt reader's that holds a passage found whole and a sentence or more around it is what the
     * generator saw of that passage: LlamaIndex's sentence window (the sentence retrieved, its window in the prompt),
     * a parent document (LangChain's ParentDocumentRetriever, LlamaIndex's auto-merging retriever). The passage's text
     * in the context widens to the block, once; a block holding several is the one whose middle the passage is
     * nearest, as a window is centred on its sentence. A block that adds less, or no sentence (a header kept), changes
     * nothing.
     */
    private static void widen(List<Placed> placed, String block, String blockText, NormalisedTexts norm) {
        int holder = -1;
        double nearest = Double.MAX_VALUE;
        for (int i = 0; i < placed.size(); i++) {
            Placed p = placed.get(i);
            if (!p.wholeAsLogged()) {
                continue;
            }
            String passage = norm.text(p.text());
            int at = block.length() - passage.length() < PromptMatches.MIN_EXTRACT_CHARS ? -1 : block.indexOf(passage);
            if (at < 0) {
                continue;
            }
            double offCentre = Math.abs(at + passage.length() / 2.0 - block.length() / 2.0);
            if (offCentre < nearest && endsASentenceOutside(block, at, at + passage.length())) {
                nearest = offCentre;
                holder = i;
            }
        }
        if (holder >= 0) {
            Placed p = placed.get(holder);
            placed.set(holder, new Placed(p.at(), p.id(), blockText.strip(), p.score(), false));
        }
    }

    /** Whether a sentence of {@code block} ends outside [from, to): what a window adds is sentences, a header not. */
    private static boolean endsASentenceOutside(String block, int from, int to) {
        return endsASentence(block, 0, from) || endsASentence(block, to, block.length());
    }

    private static boolean endsASentence(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '.' || c == '!' || c == '?') {
                return true;
            }
        }
        return false;
    }

    /**
     * A passage of the context and where it starts in the normalised prompt.
     *
     * @param wholeAsLogged its text is a known passage's, whole, not widened yet
     */
    private record Placed(int at, String id, String text, Double score, boolean wholeAsLogged) {}

    /** The prompt reader may split a known passage differently (a header line kept): don't count it twice. */
    private static boolean coveredByKnown(String norm, Set<String> known) {
        for (String k : known) {
            if (k.contains(norm) || norm.contains(k)) {
                return true;
            }
        }
        return false;
    }
}

package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which passages a generator actually saw. Passages raglog already knows (the reranker's output, else what was
 * retrieved) are found in the prompt verbatim, in prompt order; the prompt reader's own split fills in passages that
 * came from nowhere logged. Prompt truncation by the pipeline shows up here as a known passage missing.
 */
final class ContextPassages {

    private ContextPassages() {}

    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known) {
        String prompt = Texts.norm(generator.promptText());
        List<int[]> found = new ArrayList<>(); // {position in prompt, index in known}
        for (int i = 0; i < known.size(); i++) {
            String text = Texts.norm(known.get(i).text());
            if (text.isEmpty()) {
                continue;
            }
            int at = prompt.indexOf(text);
            if (at >= 0) {
                found.add(new int[] {at, i});
            }
        }
        found.sort(Comparator.comparingInt(f -> f[0]));
        List<Passage> context = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int[] f : found) {
            Passage p = known.get(f[1]);
            seen.add(Texts.norm(p.text()));
            context.add(new Passage(p.id(), p.text(), p.score(), context.size() + 1));
        }
        if (generator.contextPassages() != null) {
            for (String text : generator.contextPassages()) {
                String norm = Texts.norm(text);
                if (norm.isEmpty() || seen.contains(norm) || coveredByKnown(norm, seen)) {
                    continue;
                }
                seen.add(norm);
                context.add(new Passage(Texts.contentId(text), text, null, context.size() + 1));
            }
        }
        return context;
    }

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

package io.raglog.simulator.corpus;

import io.raglog.simulator.text.Sentences;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits documents the way LangChain's and LlamaIndex's sentence splitters do: whole sentences packed up to a size
 * budget, the previous chunk's last sentence repeated at the start of the next when it is short enough to serve as
 * overlap. A chunk is always an exact substring of its document, so gold answer offsets map onto chunks.
 */
public final class Chunker {

    private final int maxChars;
    private final int overlapChars;

    public Chunker(int maxChars, int overlapChars) {
        if (maxChars < 100) {
            throw new IllegalArgumentException("chunk size below 100 characters: " + maxChars);
        }
        this.maxChars = maxChars;
        this.overlapChars = overlapChars;
    }

    public List<Chunk> chunk(List<Document> documents) {
        List<Chunk> out = new ArrayList<>();
        for (Document d : documents) {
            chunkOne(d, out);
        }
        return out;
    }

    private void chunkOne(Document d, List<Chunk> out) {
        List<Sentences.Span> sentences = Sentences.spans(d.text());
        if (sentences.isEmpty()) {
            return;
        }
        int ordinal = 0;
        int first = 0;
        while (first < sentences.size()) {
            int last = first;
            while (last + 1 < sentences.size()
                    && sentences.get(last + 1).end() - sentences.get(first).start() <= maxChars) {
                last++;
            }
            int start = sentences.get(first).start();
            int end = sentences.get(last).end();
            out.add(new Chunk(d.docId() + "#" + ordinal++, out.size(), d.docId(), d.title(), ordinal - 1, start,
                    d.text().substring(start, end)));
            if (last + 1 >= sentences.size()) {
                break;
            }
            Sentences.Span tail = sentences.get(last);
            // Overlap only when it leaves progress: a chunk of one sentence is never repeated.
            boolean overlap = last > first && tail.end() - tail.start() <= overlapChars;
            first = overlap ? last : last + 1;
        }
    }
}

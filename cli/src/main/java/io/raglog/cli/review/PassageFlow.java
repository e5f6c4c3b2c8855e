package io.raglog.cli.review;

import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The passages of one run as they moved: what retrieval returned, what the reranker kept, what reached the prompt,
 * one row per passage (matched by text: each stage's API names passages its own way). The faults index does not hold
 * them; they come from runs files ({@code replay --runs-out}, or the {@code raglog.runs} topic written to a file)
 * given to {@code raglog review --runs}.
 *
 * @param reconstructed no retrieval call was logged: the retrieved list was rebuilt from a later stage's input
 */
record PassageFlow(List<Row> passages, boolean reranked, boolean reconstructed) {

    /** One passage: its 1-based rank at each step, null where it was not (any more). */
    record Row(String id, String text, Integer retrieved, Double retrievalScore, Integer kept, Double rerankScore,
            Integer inPrompt) {}

    static PassageFlow of(Run run) {
        Map<String, Row> rows = new LinkedHashMap<>();
        List<Passage> retrieved = run.stages().retrieve().passages();
        for (int i = 0; i < retrieved.size(); i++) {
            Passage p = retrieved.get(i);
            rows.putIfAbsent(p.text(), new Row(p.id(), p.text(), rank(p, i), p.score(), null, null, null));
        }
        boolean reranked = run.stages().rerank().present();
        if (reranked) {
            for (Passage p : run.stages().rerank().input()) {
                rows.putIfAbsent(p.text(), new Row(p.id(), p.text(), null, null, null, null, null));
            }
            List<Passage> kept = run.stages().rerank().output();
            for (int i = 0; i < kept.size(); i++) {
                Passage p = kept.get(i);
                Row r = rows.getOrDefault(p.text(), new Row(p.id(), p.text(), null, null, null, null, null));
                rows.put(p.text(), new Row(r.id(), r.text(), r.retrieved(), r.retrievalScore(), rank(p, i), p.score(),
                        null));
            }
        }
        List<Passage> context = run.stages().generate().context();
        for (int i = 0; i < context.size(); i++) {
            Passage p = context.get(i);
            Row r = rows.getOrDefault(p.text(), new Row(p.id(), p.text(), null, null, null, null, null));
            rows.put(p.text(), new Row(r.id(), r.text(), r.retrieved(), r.retrievalScore(), r.kept(), r.rerankScore(),
                    i + 1));
        }
        return new PassageFlow(new ArrayList<>(rows.values()), reranked, run.stages().retrieve().reconstructed());
    }

    private static int rank(Passage p, int index) {
        return p.rank() != null ? p.rank() : index + 1;
    }

    /** Runs by id from JSONL files of {@code raglog.run/v1} lines; held in memory for the life of the server. */
    static Map<String, Run> load(List<Path> files) throws IOException {
        Map<String, Run> runs = new HashMap<>();
        for (Path file : files) {
            try (Stream<String> lines = Files.lines(file)) {
                lines.filter(l -> !l.isBlank()).map(l -> Json.read(l, Run.class)).forEach(r -> runs.put(r.runId(), r));
            }
        }
        return runs;
    }
}

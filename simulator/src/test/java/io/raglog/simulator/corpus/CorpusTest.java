package io.raglog.simulator.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.simulator.text.HashedEmbedder;
import io.raglog.simulator.text.TermStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusTest {

    static final Path TINY = Path.of("src/test/resources/corpus/tiny");

    @TempDir
    Path dir;

    @Test
    void shouldReadTheShippedSquadFileAsParagraphsAndQuestions() {
        Corpus squad = CorpusLoader.loadShipped();
        assertThat(squad.documents()).hasSize(646);
        assertThat(squad.documents().stream().map(Document::title).distinct()).hasSize(16);
        assertThat(squad.questions()).hasSize(6078);
        assertThat(squad.questions().stream().filter(Question::answerable).count()).isEqualTo(2910);
        Question first = squad.questions().get(0);
        assertThat(first.question()).isEqualTo("In what country is Normandy located?");
        assertThat(first.relevantDocIds()).containsExactly("Normans-0");
        assertThat(first.expectedAnswer()).isEqualTo("France");
        assertThat(squad.questions()).filteredOn(q -> !q.answerable())
                .allSatisfy(q -> assertThat(q.expectedAnswer()).isNull());
    }

    @Test
    void shouldShipTheCorpusWithItsAttributionAndLicence() {
        // CC BY-SA 4.0 asks for attribution wherever the file goes: the jar carries the text beside the data
        assertThat(CorpusLoader.class.getResource(CorpusLoader.SHIPPED_SQUAD)).isNotNull();
        assertThat(CorpusLoader.class.getResource("SQUAD-LICENSE.txt")).isNotNull();
    }

    @Test
    void shouldReadAJsonlCorpusPair() {
        Corpus tiny = CorpusLoader.load(TINY);
        assertThat(tiny.documents()).hasSize(8);
        assertThat(tiny.questions()).hasSize(12);
        Question q3 = tiny.questions().get(2);
        assertThat(q3.questionId()).isEqualTo("q3");
        assertThat(q3.expectedAnswer()).isEqualTo("Marta Ilves");
        assertThat(q3.relevantDocIds()).containsExactly("harbor-2");
        assertThat(tiny.questions().get(9).answerable()).isFalse();
    }

    @Test
    void shouldNameTheFileAndLineOfABadCorpusLine() throws Exception {
        Files.writeString(dir.resolve("documents.jsonl"), "{\"doc_id\":\"d1\",\"text\":\"Some text.\"}\n{oops\n");
        Files.writeString(dir.resolve("questions.jsonl"), "");
        assertThatThrownBy(() -> CorpusLoader.load(dir)).hasMessageContaining("documents.jsonl:2");
        Files.writeString(dir.resolve("documents.jsonl"), "{\"doc_id\":\"d1\",\"text\":\"Some text.\"}\n");
        Files.writeString(dir.resolve("questions.jsonl"), "{\"question_id\":\"q\",\"question\":\"Why?\","
                + "\"is_answerable\":true,\"relevant_doc_ids\":[\"d9\"],\"expected_answer\":\"x\"}\n");
        assertThatThrownBy(() -> CorpusLoader.load(dir)).hasMessageContaining("unknown relevant doc_id d9");
    }

    @Test
    void shouldChunkIntoExactSubstringsWithSentenceOverlap() {
        Corpus squad = CorpusLoader.loadShipped();
        List<Chunk> chunks = new Chunker(400, 200).chunk(squad.documents());
        assertThat(chunks.size()).isGreaterThan(squad.documents().size());
        int overlapping = 0;
        Chunk previous = null;
        for (Chunk c : chunks) {
            String doc = squad.document(c.docId()).text();
            assertThat(doc.substring(c.start(), c.end())).isEqualTo(c.text());
            assertThat(c.chunkId()).isEqualTo(c.docId() + "#" + c.ordinal());
            if (previous != null && previous.docId().equals(c.docId()) && c.start() < previous.end()) {
                overlapping++;
            }
            previous = c;
        }
        assertThat(overlapping).isGreaterThan(100);
    }

    @Test
    void shouldFindTheEvidenceChunkFromTheAnswerOffset() {
        Corpus squad = CorpusLoader.loadShipped();
        List<String> texts = squad.documents().stream().map(Document::text).toList();
        ChunkIndex index = new ChunkIndex(squad, new Chunker(400, 200), new HashedEmbedder(new TermStats(texts), 384));
        for (Question q : squad.questions().subList(0, 400)) {
            List<Chunk> evidence = index.evidence(q);
            if (!q.answerable()) {
                assertThat(evidence).isEmpty();
                continue;
            }
            assertThat(evidence).isNotEmpty().allSatisfy(c -> {
                assertThat(q.relevantDocIds()).contains(c.docId());
                assertThat(q.acceptableAnswers()).anySatisfy(a -> assertThat(c.text()).contains(a));
            });
        }
    }

    @Test
    void shouldRetrieveTheEvidenceForMostQuestionsButNotAll() {
        Corpus squad = CorpusLoader.loadShipped();
        List<String> texts = squad.documents().stream().map(Document::text).toList();
        HashedEmbedder embedder = new HashedEmbedder(new TermStats(texts), 384);
        ChunkIndex index = new ChunkIndex(squad, new Chunker(512, 200), embedder);
        int answerable = 0;
        int found = 0;
        for (Question q : squad.questions().subList(0, 1500)) {
            if (!q.answerable()) {
                continue;
            }
            answerable++;
            List<Chunk> evidence = index.evidence(q);
            if (index.search(embedder.embed(q.question()), 10).stream().anyMatch(h -> evidence.contains(h.chunk()))) {
                found++;
            }
        }
        // A real similarity search: good enough to be a pipeline, imperfect enough for natural retrieval faults.
        assertThat((double) found / answerable).isBetween(0.65, 0.95);
    }
}

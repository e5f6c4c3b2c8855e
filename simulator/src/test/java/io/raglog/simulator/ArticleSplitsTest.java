package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Label;
import io.raglog.schemas.SchemaIds;
import io.raglog.simulator.corpus.ArticleSplits;
import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.CorpusLoader;
import io.raglog.simulator.corpus.Question;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Train, test, unseen and lockbox must not share an article, a paragraph or a question: checked on the partition
 * and, since a constant can be right while the drawing is wrong, on the ids of what the simulator actually asked.
 */
class ArticleSplitsTest {

    private static final List<String> SPLITS = List.of(ArticleSplits.TRAIN, ArticleSplits.TEST,
            ArticleSplits.UNSEEN, ArticleSplits.LOCKBOX);
    private static final String PROFILE = "tei-pinecone-anthropic";

    @TempDir
    Path dir;

    @Test
    void shouldPutEveryArticleOfTheSquadFileInExactlyOneSplit() {
        Corpus squad = CorpusLoader.loadShipped();
        Set<String> articles = squad.documents().stream().map(d -> ArticleSplits.articleOf(d.docId()))
                .collect(Collectors.toSet());
        Map<String, Integer> seen = new HashMap<>();
        for (String split : SPLITS) {
            ArticleSplits.articles(split).forEach(a -> seen.merge(a, 1, Integer::sum));
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(articles);
        assertThat(seen).allSatisfy((article, count) -> assertThat(count).as(article).isEqualTo(1));
        assertThat(ArticleSplits.names()).containsExactlyInAnyOrderElementsOf(SPLITS);
    }

    @Test
    void shouldGiveEverySplitEnoughQuestionsAndASimilarAnswerableShare() {
        Corpus squad = CorpusLoader.loadShipped();
        double all = share(squad.questions());
        for (String split : SPLITS) {
            List<Question> qs = ArticleSplits.questionsOf(squad, Set.copyOf(ArticleSplits.articles(split)));
            // the smallest run count a split serves without repeating: 450 runs at 70 % answerable
            assertThat(qs.stream().filter(Question::answerable).count()).as(split).isGreaterThanOrEqualTo(315);
            assertThat(share(qs)).as(split).isCloseTo(all, org.assertj.core.data.Offset.offset(0.05));
        }
    }

    @Test
    void shouldAskNoArticleParagraphOrQuestionInTwoSplits() {
        Map<String, List<Label>> asked = new HashMap<>();
        for (String split : SPLITS) {
            SimulatorOptions options = SimulatorOptions.of(PROFILE, 150, 7).withSplit(split).withIndexEvery(0);
            asked.put(split, SimulatedLogs.simulate(options, dir.resolve(split)).labels);
        }
        Corpus squad = CorpusLoader.loadShipped();
        Map<String, Question> byId = squad.questions().stream()
                .collect(Collectors.toMap(Question::questionId, Function.identity()));
        for (int i = 0; i < SPLITS.size(); i++) {
            for (int j = i + 1; j < SPLITS.size(); j++) {
                List<Label> a = asked.get(SPLITS.get(i));
                List<Label> b = asked.get(SPLITS.get(j));
                String pair = SPLITS.get(i) + " vs " + SPLITS.get(j);
                assertThat(ids(a, Label::questionId)).as(pair + ": questions")
                        .doesNotContainAnyElementsOf(ids(b, Label::questionId));
                assertThat(paragraphs(a, byId)).as(pair + ": paragraphs")
                        .doesNotContainAnyElementsOf(paragraphs(b, byId));
                assertThat(evidenceParagraphs(a)).as(pair + ": evidence paragraphs")
                        .doesNotContainAnyElementsOf(evidenceParagraphs(b));
                Set<String> articlesA = paragraphs(a, byId).stream().map(ArticleSplits::articleOf)
                        .collect(Collectors.toSet());
                assertThat(paragraphs(b, byId)).as(pair + ": articles")
                        .noneMatch(p -> articlesA.contains(ArticleSplits.articleOf(p)));
            }
        }
    }

    @Test
    void shouldNotRepeatAQuestionWithinASampleTheSplitCanServe() {
        SimulatedLogs logs = SimulatedLogs.simulate(
                SimulatorOptions.of(PROFILE, 300, 3).withSplit(ArticleSplits.UNSEEN).withIndexEvery(0), dir);
        List<String> asked = logs.labels.stream().map(Label::questionId).toList();
        assertThat(Set.copyOf(asked)).hasSameSizeAs(asked);
        assertThat(logs.summary.toJson().get("questions").get("pool_exhausted").asInt()).isZero();
        assertThat(logs.summary.toJson().get("questions").get("split").asText()).isEqualTo("unseen");
    }

    @Test
    void shouldSayWhenASampleOutgrowsItsPoolAndOnlyThenRepeat() {
        // Normans: 96 answerable questions; 200 runs at 70 % answerable ask for ~140
        SimulatorOptions options = SimulatorOptions.of(PROFILE, 200, 3).withArticles(List.of("Normans"))
                .withIndexEvery(0);
        List<String> progress = new java.util.ArrayList<>();
        List<Label> labels = new java.util.ArrayList<>();
        Simulator simulator = new Simulator(options);
        simulator.run(new CollectingSink(labels), progress::add);
        assertThat(progress).anySatisfy(line -> assertThat(line).contains("exhausted").contains("split custom"));
        assertThat(labels).allSatisfy(l -> assertThat(l.questionId()).isIn(
                simulator.corpus().questions().stream().filter(q -> q.relevantDocIds().get(0).startsWith("Normans-"))
                        .map(Question::questionId).toList()));
        // the first full pass of the answerable pool asks each of its questions once
        List<String> answerable = labels.stream().filter(Label::isAnswerable).map(Label::questionId).toList();
        assertThat(Set.copyOf(answerable.subList(0, 96))).hasSize(96);
        assertThat(Set.copyOf(answerable)).hasSize(96);
    }

    @Test
    void shouldRejectAnArticleTheCorpusDoesNotHold() {
        assertThatThrownBy(() -> new Simulator(SimulatorOptions.of(PROFILE, 10, 1)
                .withArticles(List.of("Normans", "Normandy"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Normandy");
        assertThatThrownBy(() -> SimulatorOptions.of(PROFILE, 10, 1).withSplit("validation"))
                .hasMessageContaining("unknown split");
    }

    @Test
    void shouldLabelAnUnanswerableQuestionAKnowledgeGapWithSoundRetrieval() {
        List<Label> labels = SimulatedLogs.simulate(SimulatorOptions.of(PROFILE, 200, 4)
                .withSplit(ArticleSplits.TEST).withIndexEvery(0), dir).labels;
        assertThat(labels).allSatisfy(l -> {
            assertThat(l.schema()).isEqualTo(SchemaIds.LABEL_V3);
            assertThat(l.knowledgeGap()).isEqualTo(!l.isAnswerable());
            assertThat(l.stages().retrieve()).isNotNull();
            if (l.knowledgeGap() && "retrieve".equals(l.faultStage())) {
                // only passages that miss the one asked about make retrieval faulty on a question nothing answers,
                // planted there or not (FaultInjectionTest holds the natural ones to the retrieved passages)
                assertThat(l.faultType()).isIn("retrieve.off_topic", "retrieve.missed_asked_passage");
            }
        });
        assertThat(labels).filteredOn(Label::onlyKnowledgeGap).isNotEmpty();
    }

    /** Keeps the labels only: the calls are not what these tests look at. */
    private record CollectingSink(List<Label> labels) implements io.raglog.simulator.output.SimulationSink {
        @Override
        public void call(io.raglog.schemas.CallEvent call) {}

        @Override
        public void traces(com.fasterxml.jackson.databind.node.ObjectNode request) {}

        @Override
        public void label(Label label) {
            labels.add(label);
        }

        @Override
        public void close() {}
    }

    private static double share(List<Question> qs) {
        return (double) qs.stream().filter(Question::answerable).count() / qs.size();
    }

    private static Set<String> ids(List<Label> labels, Function<Label, String> id) {
        return labels.stream().map(id).collect(Collectors.toSet());
    }

    private static Set<String> paragraphs(List<Label> labels, Map<String, Question> byId) {
        Set<String> out = new HashSet<>();
        labels.forEach(l -> out.addAll(byId.get(l.questionId()).relevantDocIds()));
        return out;
    }

    /** Evidence chunk ids are {@code <doc id>#<chunk>}: the paragraph is what precedes the hash. */
    private static Set<String> evidenceParagraphs(List<Label> labels) {
        Set<String> out = new HashSet<>();
        labels.forEach(l -> l.evidenceChunkIds().forEach(c -> out.add(c.substring(0, c.lastIndexOf('#')))));
        return out;
    }
}

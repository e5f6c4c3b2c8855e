package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.PassageFate.Fate;
import io.raglog.schemas.TokenUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each passage handed on is found in the prompt whole, cut short, or not at all; the stage says which and where. */
class ContextAssemblyTest {

    private static final Passage A = new Passage("a", "The Normans were a people who in the 10th and 11th centuries "
            + "gave their name to Normandy, a region in France.", 0.9, 1);
    private static final Passage B = new Passage("b", "Rollo was the first ruler of Normandy. His descendants swore "
            + "fealty to the kings of West Francia, and the duchy grew strong under them.", 0.8, 2);
    private static final Passage C = new Passage("c", "The Norman conquest of England began in 1066 with the Battle "
            + "of Hastings, where Duke William defeated King Harold.", 0.7, 3);

    private static ChatDetail generator(String context) {
        String prompt = "Answer from the context.\n\nContext:\n" + context + "\n\nQuestion: Who was Rollo?";
        return new ChatDetail("test.chat", "gpt-4o-2024-08-06", List.of(new ChatMessage("user", prompt)), "A ruler.",
                new TokenUsage(2950, 12), ChatRole.GENERATE, "Who was Rollo?", context, List.of(), false);
    }

    @Test
    void readsWholeCutAndDroppedPassagesInPromptOrder() {
        // best last: C first, then A, then the first 60 characters of B; nothing else
        ChatDetail chat = generator(C.text() + "\n\n" + A.text() + "\n\n" + B.text().substring(0, 60));

        AssembleStage stage = ContextAssembly.of(List.of(A, B, C), AssembleStage.BY_RERANK, chat, 2950,
                new NormalisedTexts());

        assertThat(stage.present()).isTrue();
        assertThat(stage.handedOnBy()).isEqualTo("rerank");
        assertThat(stage.passages()).extracting(PassageFate::passageId, PassageFate::fate, PassageFate::promptPosition)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", Fate.WHOLE, 2),
                        org.assertj.core.groups.Tuple.tuple("b", Fate.CUT, 3),
                        org.assertj.core.groups.Tuple.tuple("c", Fate.WHOLE, 1));
        PassageFate cut = stage.passages().get(1);
        assertThat(cut.keptChars()).as("60 characters, and the space after them").isBetween(55, 61);
        assertThat(cut.chars()).isGreaterThan(cut.keptChars());
        assertThat(stage.promptTokens()).isEqualTo(2950);
        assertThat(stage.contextWindow()).as("gpt-4o is known").isEqualTo(128_000);
        assertThat(stage.lost()).isEqualTo(1);
    }

    @Test
    void aPassageWithOnlyItsOpeningWordsInThePromptIsDroppedNotCut() {
        ChatDetail chat = generator(A.text() + "\n\n" + B.text().substring(0, 20));

        AssembleStage stage = ContextAssembly.of(List.of(A, B), AssembleStage.BY_RERANK, chat, null,
                new NormalisedTexts());

        assertThat(stage.passages().get(1).fate()).isEqualTo(Fate.DROPPED);
        assertThat(stage.passages().get(1).promptPosition()).isNull();
        assertThat(stage.contextWindow()).isEqualTo(128_000);
    }

    @Test
    void isAbsentWhenNoPassageHandedOnIsInThePrompt() {
        // the context reached the model some way raglog does not see: not "everything dropped"
        ChatDetail chat = generator("unrelated context the pipeline built from elsewhere");

        assertThat(ContextAssembly.of(List.of(A, B), AssembleStage.BY_RETRIEVE, chat, null, new NormalisedTexts())
                .present()).isFalse();
        assertThat(ContextAssembly.of(List.of(), AssembleStage.BY_RETRIEVE, chat, null, new NormalisedTexts())
                .present()).isFalse();
    }

    @Test
    void aRerankerThatScoredEverythingHandsOnOnlyDownToTheLowestPassageThatReachedThePrompt() {
        // a reranker asked without a top-n: the pipeline kept its own top two; B missing between them is assembly's
        ChatDetail chat = generator(A.text() + "\n\n" + C.text());

        AssembleStage stage = ContextAssembly.of(List.of(A, B, C, new Passage("d", "Unrelated text about "
                + "the Byzantine navy and its ships in the Mediterranean.", 0.1, 4)), AssembleStage.BY_RERANK, true,
                chat, null, new NormalisedTexts());

        assertThat(stage.passages()).extracting(PassageFate::passageId).containsExactly("a", "b", "c");
        assertThat(stage.passages().get(1).fate()).isEqualTo(Fate.DROPPED);
    }

    @Test
    void theGeneratorsContextListsACutPassageUnderItsOwnIdWithThePartThatReachedThePrompt() {
        ChatDetail chat = generator(C.text() + "\n\n" + A.text() + "\n\n" + B.text().substring(0, 60));

        List<Passage> context = ContextPassages.inPrompt(chat, List.of(A, B, C), new NormalisedTexts());

        assertThat(context).extracting(Passage::id).containsExactly("c", "a", "b");
        assertThat(B.text()).startsWith(context.get(2).text());
        assertThat(context.get(2).text().length()).isBetween(55, 61);
        assertThat(context.get(0).text()).isEqualTo(C.text());
    }

    /**
     * A contextual compressor kept B's second sentence and nothing of C: B is extracted, its extract the context's
     * passage under B's own id (as the prompt reader split it out, or from B's text when it did not), C dropped.
     */
    @Test
    void readsACompressorsExtractAsWhatOfItsPassageReachedThePromptUnderThePassagesId() {
        String extract = "His descendants swore fealty to the kings of West Francia, and the duchy grew strong under "
                + "them.";
        ChatDetail chat = generator(A.text() + "\n\n" + extract);
        ChatDetail split = new ChatDetail(chat.adapter(), chat.model(), chat.messages(), chat.output(), chat.usage(),
                chat.role(), chat.question(), chat.contextText(), List.of(A.text(), extract), false);

        AssembleStage stage = ContextAssembly.of(List.of(A, B, C), AssembleStage.BY_RERANK, chat, null,
                new NormalisedTexts());

        assertThat(stage.passages()).extracting(PassageFate::passageId, PassageFate::fate, PassageFate::promptPosition)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", Fate.WHOLE, 1),
                        org.assertj.core.groups.Tuple.tuple("b", Fate.EXTRACTED, 2),
                        org.assertj.core.groups.Tuple.tuple("c", Fate.DROPPED, null));
        assertThat(stage.passages().get(1).keptChars()).isEqualTo(extract.length());
        // the reader may not split the context at all: one block, a passage and an extract
        ChatDetail oneBlock = new ChatDetail(chat.adapter(), chat.model(), chat.messages(), chat.output(),
                chat.usage(), chat.role(), chat.question(), chat.contextText(), List.of(A.text() + "\n\n" + extract),
                false);
        assertThat(ContextAssembly.of(List.of(A, B, C), AssembleStage.BY_RERANK, oneBlock, null,
                new NormalisedTexts()).passages()).extracting(PassageFate::fate)
                .containsExactly(Fate.WHOLE, Fate.EXTRACTED, Fate.DROPPED);
        for (ChatDetail generator : List.of(chat, split)) {
            List<Passage> context = ContextPassages.inPrompt(generator, List.of(A, B, C), new NormalisedTexts());
            assertThat(context).extracting(Passage::id, Passage::text).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("a", A.text()),
                    org.assertj.core.groups.Tuple.tuple("b", extract));
            assertThat(context.get(1).score()).isEqualTo(B.score());
        }
    }

    /**
     * LlamaIndex's sentence window: the store returns single sentences, the prompt gets each one's window, the
     * sentences around it. What the generator saw of each is its window (two windows overlapping, each the one of the
     * sentence in its middle); a header line kept with a passage widens nothing.
     */
    @Test
    void listsAPassageThePromptHoldsWithinItsSentenceWindowAsTheWindow() {
        String before = "The Normans were a people of northern France. ";
        String s1 = "Rollo was the first ruler of Normandy.";
        String s2 = "His descendants swore fealty to the kings of West Francia.";
        String after = " The duchy grew strong under them, and its knights went south to Italy.";
        Passage first = new Passage("s1", s1, 0.9, 1);
        Passage second = new Passage("s2", s2, 0.8, 2);
        String window1 = before + s1 + " " + s2;
        String window2 = s1 + " " + s2 + after;
        ChatDetail chat = generator(window1 + "\n\n" + window2);
        ChatDetail windows = new ChatDetail(chat.adapter(), chat.model(), chat.messages(), chat.output(), chat.usage(),
                chat.role(), chat.question(), chat.contextText(), List.of(window1, window2), false);

        List<Passage> context = ContextPassages.inPrompt(windows, List.of(first, second), new NormalisedTexts());

        assertThat(context).extracting(Passage::id, Passage::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple("s1", window1), org.assertj.core.groups.Tuple.tuple("s2", window2));
        assertThat(ContextAssembly.of(List.of(first, second), AssembleStage.BY_RETRIEVE, windows, null,
                new NormalisedTexts()).passages()).extracting(PassageFate::fate).containsOnly(Fate.WHOLE);

        String headedBlock = "From the annual report of the Norman history society, page 12\n" + A.text();
        ChatDetail plain = generator(headedBlock);
        ChatDetail headed = new ChatDetail(plain.adapter(), plain.model(), plain.messages(), plain.output(),
                plain.usage(), plain.role(), plain.question(), plain.contextText(), List.of(headedBlock), false);
        assertThat(ContextPassages.inPrompt(headed, List.of(A), new NormalisedTexts())).extracting(Passage::text)
                .containsExactly(A.text());
    }

    @Test
    void findsTheLongestPrefixInLogarithmicSteps() {
        assertThat(PromptMatches.longestPrefixIn("xx hello wor yy", "hello world", 0)).isEqualTo(9);
        assertThat(PromptMatches.longestPrefixIn("xyz", "hello", 0)).isZero();
        assertThat(PromptMatches.longestPrefixIn("say hello", "hello", 0)).isEqualTo(5);
        assertThat(PromptMatches.longestPrefixIn("xx hello wor yy", "hello world", 3)).isEqualTo(9);
    }
}

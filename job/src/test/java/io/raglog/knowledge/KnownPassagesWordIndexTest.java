package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.drift.IndexEmbedding;
import io.raglog.schemas.Run;
import io.raglog.simulator.SimulatorOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;

/**
 * The known passages' word index lives on the heap ({@link WordIndex}), beside the texts in state, and is rebuilt from
 * them after a restore. Every run must get the second opinion it got when each word's list of keys was kept in state,
 * and a restore must change none.
 */
class KnownPassagesWordIndexTest {

    /**
     * SHA-256 of the 1,250 second opinions below, one line each, written from the code that kept the word lists in
     * state (before {@link WordIndex}); {@link WordIndex} gave the same until the simulator's runs changed on
     * 2026-12-05 (a run's context gets the room the rest of its prompt leaves; later, a planted meaning change replaces
     * only the question's words; on 2026-12-06, a wrong answer said in the model's style, then a planted assembly loss
     * kept to rooms the pipeline's runs get, then planted off-topic retrieval nearest the query in a store of other
     * subjects), and this was written again from it each time, after candidates matched from their texts gave the
     * same.
     */
    private static final String OPINIONS_BEFORE_THE_WORD_INDEX =
            "c3ce32ed8776f2ce3da0680899b4e092ec6e1396cfd0a644f023a38c759a3fe1";

    private static final List<KnownPassagesBoundTest.Input> INPUTS =
            KnownPassagesBoundTest.inputs(SimulatorOptions.of("all", 1_500, 29).withIndexEvery(4));

    @Test
    void shouldGiveEveryRunTheSecondOpinionOfTheWordListsKeptInState() throws Exception {
        List<String> opinions = KnownPassagesBoundTest.secondOpinions(INPUTS, false);
        assertThat(opinions).hasSize(1_250);
        assertThat(digest(opinions)).isEqualTo(OPINIONS_BEFORE_THE_WORD_INDEX);
    }

    @Test
    void shouldGiveTheSameSecondOpinionsAfterARestoreOnRocksDb() throws Exception {
        int half = INPUTS.size() / 2;
        List<String> opinions = new ArrayList<>();
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            KnownPassagesBoundTest.feed(h, INPUTS.subList(0, half));
            opinions.addAll(KnownPassagesBoundTest.secondOpinions(h));
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness()) {
            h.initializeState(snapshot);
            h.open();
            KnownPassagesBoundTest.feed(h, INPUTS.subList(half, INPUTS.size()));
            opinions.addAll(KnownPassagesBoundTest.secondOpinions(h));
        }
        assertThat(opinions).containsExactlyElementsOf(KnownPassagesBoundTest.secondOpinions(INPUTS, false));
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall, Either<Run, IndexEmbedding>>
            harness() throws Exception {
        return KnownPassagesBoundTest.harness(new KnownPassagesFunction(), new EmbeddedRocksDBStateBackend());
    }

    private static String digest(List<String> lines) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String line : lines) {
            sha.update(line.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) '\n');
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}

package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpJsonDecoder;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ChatRoleRules#instructions} over every chat call of the simulator's runs, every profile (proxy-captured and
 * OTLP): the very string the code gave before its buffer ({@link ChatRoleRulesInstructionsTest#referenceInstructions}).
 */
class ChatRoleRulesSimulatedTest {

    @Test
    void shouldGiveEverySimulatedChatCallTheOldInstructions() {
        CallClassifier classifier = BuiltInAdapters.classifier();
        int chats = 0;
        for (SimulatorOptions options : List.of(SimulatorOptions.of("all", 150, 7), SimulatorOptions.of("all", 60, 11))) {
            MemorySink sink = new MemorySink();
            new Simulator(options).run(sink);
            List<CallEvent> calls = new ArrayList<>(sink.calls());
            for (ObjectNode traces : sink.traces()) {
                calls.addAll(new OtlpJsonDecoder().decode(Json.writeBytes(traces)).calls());
            }
            for (CallEvent call : calls) {
                if (classifier.classify(call) instanceof Classification.Classified c
                        && c.call().detail() instanceof ChatDetail chat) {
                    ChatRoleRulesInstructionsTest.assertSameInstructions(chat.messages(),
                            PromptAnatomy.parse(chat.messages()));
                    chats++;
                }
            }
        }
        assertThat(chats).isGreaterThan(300);
    }
}

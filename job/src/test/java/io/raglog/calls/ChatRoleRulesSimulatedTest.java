package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link ChatRoleRules#instructions} over every chat call of the simulator's runs, every profile (proxy-captured and
 * OTLP): the very string the code gave before its buffer ({@link ChatRoleRulesInstructionsTest#referenceInstructions}).
 */
class ChatRoleRulesSimulatedTest {

    @Test
    void shouldGiveEverySimulatedChatCallTheOldInstructions() {
        int chats = 0;
        for (ChatDetail chat : PromptAnatomyUnchangedTest.simulatedChats()) {
            ChatRoleRulesInstructionsTest.assertSameInstructions(chat.messages(), PromptAnatomy.parse(chat.messages()));
            chats++;
        }
        assertThat(chats).isGreaterThan(300);
    }
}

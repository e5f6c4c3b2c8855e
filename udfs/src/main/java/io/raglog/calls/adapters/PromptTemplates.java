package io.raglog.calls.adapters;

import io.raglog.calls.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chat written into one prompt string with its model's template, as a client does when it calls a text-completion
 * API with a chat model (Llama and Mistral on Bedrock's invoke, LangChain's {@code ChatBedrock} among them), read back
 * into the messages: Llama 3's header tokens ({@code <|start_header_id|>user<|end_header_id|>} … {@code <|eot_id|>}),
 * or Llama 2's and Mistral's {@code [INST]} … {@code [/INST]} turns with an optional {@code <<SYS>>} block. A prompt
 * in no template is one user message. Read apart, the system prompt's instructions are not taken for the question.
 */
final class PromptTemplates {

    private static final Pattern LLAMA3_TURN = Pattern.compile(
            "<\\|start_header_id\\|>(\\w+)<\\|end_header_id\\|>\\s*(.*?)\\s*(?:<\\|eot_id\\|>|$)", Pattern.DOTALL);
    private static final Pattern INST_TURN = Pattern.compile(
            "\\[INST\\]\\s*(.*?)\\s*\\[/INST\\]\\s*(.*?)\\s*(?=(?:</s>)?\\s*(?:<s>)?\\s*\\[INST\\]|$)", Pattern.DOTALL);
    private static final Pattern SYS_BLOCK = Pattern.compile("^<<SYS>>\\s*(.*?)\\s*<</SYS>>\\s*", Pattern.DOTALL);

    private PromptTemplates() {}

    static List<ChatMessage> messages(String prompt) {
        List<ChatMessage> out = new ArrayList<>();
        if (prompt.contains("<|start_header_id|>")) {
            Matcher turn = LLAMA3_TURN.matcher(prompt);
            while (turn.find()) {
                if (!turn.group(2).isEmpty()) {
                    out.add(new ChatMessage(turn.group(1), turn.group(2)));
                }
            }
        } else if (prompt.contains("[INST]")) {
            Matcher turn = INST_TURN.matcher(prompt);
            while (turn.find()) {
                String user = turn.group(1);
                Matcher system = SYS_BLOCK.matcher(user);
                if (system.find()) {
                    out.add(new ChatMessage("system", system.group(1)));
                    user = user.substring(system.end());
                }
                out.add(new ChatMessage("user", user));
                if (!turn.group(2).isEmpty()) {
                    out.add(new ChatMessage("assistant", turn.group(2)));
                }
            }
        }
        return out.isEmpty() ? List.of(new ChatMessage("user", prompt)) : out;
    }
}

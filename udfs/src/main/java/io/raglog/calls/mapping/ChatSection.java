package io.raglog.calls.mapping;

import static io.raglog.calls.mapping.MappedSection.from;
import static io.raglog.calls.mapping.MappedSection.required;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.mapping.BodyPath.Root;
import io.raglog.calls.mapping.MappedValues.Named;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * A chat-shaped endpoint: the messages, a prompt, or a question and its context passages (a wrapper service that
 * builds the prompt itself). Every chat detail goes through {@link ChatDetails#of}, so the rewrite / generate rules
 * read a mapped call exactly as they read OpenAI's.
 */
final class ChatSection implements MappedSection {

    private static final long serialVersionUID = 1L;

    private final Named messages;
    private final Named messageRole;
    private final Named messageContent;
    private final Named system;
    private final Named prompt;
    private final Named question;
    private final Named context;
    private final Named contextText;
    private final Named output;
    private final Named model;
    private final Named inputTokens;
    private final Named outputTokens;

    ChatSection(FieldMapping.Chat c) {
        messages = from(Named.absolute("chat.messages", c.messages()), Root.REQUEST);
        messageRole = Named.relative("chat.message_role", c.messageRole());
        messageContent = Named.relative("chat.message_content", c.messageContent());
        system = from(Named.absolute("chat.system", c.system()), Root.REQUEST);
        prompt = from(Named.absolute("chat.prompt", c.prompt()), Root.REQUEST);
        question = from(Named.absolute("chat.question", c.question()), Root.REQUEST);
        context = Named.absolute("chat.context", c.context()); // a wrapper may return its sources with the answer
        contextText = Named.relative("chat.context_text", c.contextText());
        output = from(required(Named.absolute("chat.output", c.output()), "chat.output"), Root.RESPONSE);
        model = Named.absolute("chat.model", c.model());
        inputTokens = Named.absolute("chat.input_tokens", c.inputTokens());
        outputTokens = Named.absolute("chat.output_tokens", c.outputTokens());
        if (messages == null && prompt == null && question == null) {
            throw new IllegalArgumentException("chat needs messages, prompt or question");
        }
        if (messages != null && messageContent == null) {
            throw new IllegalArgumentException("chat.message_content is required with chat.messages");
        }
    }

    @Override
    public List<PathOf> paths() {
        List<PathOf> out = new ArrayList<>(MappedSection.paths(new Named[] {messages, system, prompt, question, context,
                output, model, inputTokens, outputTokens}, messages, messageRole, messageContent));
        out.addAll(MappedSection.paths(new Named[0], context, contextText));
        return out;
    }

    @Override
    public CallDetail read(CallEvent call, String adapter) throws AdapterException {
        List<ChatMessage> prompted = prompted(call);
        String text = null;
        if (Bodies.succeeded(call)) {
            text = MappedValues.requireText(output.in(call), output);
        }
        TokenUsage usage = TokenUsage.UNKNOWN;
        Integer in = inputTokens == null ? null : MappedValues.integer(inputTokens.in(call), inputTokens);
        Integer out = outputTokens == null ? null : MappedValues.integer(outputTokens.in(call), outputTokens);
        if (in != null || out != null) {
            usage = new TokenUsage(in, out);
        }
        String modelName = model == null ? null : MappedValues.label(model.in(call));
        return ChatDetails.of(adapter, modelName, prompted, text, usage, false);
    }

    private List<ChatMessage> prompted(CallEvent call) throws AdapterException {
        if (messages != null) {
            List<JsonNode> elements = MappedValues.elements(messages.path().withoutTrailingWildcard().select(call));
            if (elements.isEmpty()) {
                throw new AdapterException(messages.label() + " is missing or empty");
            }
            List<ChatMessage> out = new ArrayList<>(elements.size());
            for (JsonNode m : elements) {
                String role = messageRole == null ? null : MappedValues.text(messageRole.in(m), messageRole);
                String content = MappedValues.text(messageContent.in(m), messageContent);
                out.add(new ChatMessage(role == null ? "user" : role, content == null ? "" : content));
            }
            return out;
        }
        List<ChatMessage> out = new ArrayList<>();
        String systemText = system == null ? null : MappedValues.text(system.in(call), system);
        if (systemText != null) {
            out.add(new ChatMessage("system", systemText));
        }
        if (prompt != null) {
            out.add(new ChatMessage("user", MappedValues.requireText(prompt.in(call), prompt)));
            return out;
        }
        String q = MappedValues.requireText(question.in(call), question);
        if (context == null) {
            out.add(new ChatMessage("user", q)); // a question alone: the rules judge it by its reply
            return out;
        }
        List<String> passages = new ArrayList<>();
        for (JsonNode element : MappedValues.elements(context.path().withoutTrailingWildcard().select(call))) {
            String p = MappedValues.elementText(element, contextText);
            if (p != null && !p.isBlank()) {
                passages.add(p);
            }
        }
        out.addAll(WrapperPrompt.messages(q, passages));
        return out;
    }
}

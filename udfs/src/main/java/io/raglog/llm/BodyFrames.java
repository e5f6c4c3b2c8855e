package io.raglog.llm;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A request body is the user message in a frame that is the same for every run of a check: the vendor's JSON and the
 * system message before it, the closing brackets after. The frame is written once per system message and token limit
 * and each body is then three parts, the frame's two and the user message's escaped bytes, with no JSON written per
 * request: writing it, in five parts, was 6 % of what the calling thread allocated sending a run's requests (llmSends,
 * JFR).
 */
final class BodyFrames {

    /** Far more than the five checks' prompts and the mapping prompt; past it, a body is written whole. */
    private static final int MAX_FRAMES = 64;

    private record Key(EscapedText system, int maxOutputTokens) {}

    /** The bytes before and after the user message. */
    private record Frame(byte[] before, byte[] after) {}

    /** A stand-in user message, recognised among the parts by its array. */
    private static final EscapedText SLOT = EscapedText.of("");

    private final Function<ChatRequest, List<byte[]>> writeWhole;
    private final Map<Key, Frame> frames = new ConcurrentHashMap<>();

    /** @param writeWhole the body's parts as the vendor writes them, the user message one of them */
    BodyFrames(Function<ChatRequest, List<byte[]>> writeWhole) {
        this.writeWhole = writeWhole;
    }

    /** The body's parts: the same bytes, in the same order, as {@code writeWhole} gives. */
    List<byte[]> body(ChatRequest request) {
        if (request.escapedUser() == null) {
            return writeWhole.apply(request);
        }
        Key key = new Key(request.escapedSystem(), request.maxOutputTokens());
        Frame frame = frames.get(key);
        if (frame == null) {
            if (frames.size() >= MAX_FRAMES) {
                return writeWhole.apply(request);
            }
            frame = frames.computeIfAbsent(key, k -> frame(request));
        }
        EscapedText user = request.escapedUser();
        if (user.partCount() == 1) {
            return List.of(frame.before, user.quoted(), frame.after);
        }
        List<byte[]> body = new ArrayList<>(user.partCount() + 2);
        body.add(frame.before);
        user.addTo(body);
        body.add(frame.after);
        return body;
    }

    private Frame frame(ChatRequest request) {
        List<byte[]> parts = writeWhole.apply(new ChatRequest(request.promptId(), request.escapedSystem(), SLOT,
                request.maxOutputTokens()));
        ByteArrayOutputStream before = new ByteArrayOutputStream();
        ByteArrayOutputStream after = new ByteArrayOutputStream();
        ByteArrayOutputStream into = before;
        for (byte[] part : parts) {
            if (part == SLOT.quoted()) {
                into = after;
            } else {
                into.writeBytes(part);
            }
        }
        if (into != after) {
            throw new IllegalStateException("the vendor's body does not hold the user message as a part of its own");
        }
        return new Frame(before.toByteArray(), after.toByteArray());
    }
}

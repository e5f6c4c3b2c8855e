package io.raglog.calls.adapters.otlp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Passage ids for spans that name no document id: derived from the text, as the {@code Passage} contract says. */
final class PassageIds {

    private PassageIds() {}

    static String idOr(String id, String text) {
        if (id != null && !id.isBlank()) {
            return id;
        }
        return contentId(text == null ? "" : text);
    }

    static String contentId(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha1:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by the Java platform", e);
        }
    }
}

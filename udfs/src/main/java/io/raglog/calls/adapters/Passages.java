package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Passage identity: the store's id when it gave one, else an id derived from the text so runs can still link. */
public final class Passages {

    private Passages() {}

    public static String id(JsonNode storeId, String text) {
        if (storeId != null && (storeId.isTextual() || storeId.isNumber()) && !storeId.asText().isBlank()) {
            return storeId.asText();
        }
        return contentId(text);
    }

    public static String contentId(String text) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((text == null ? "" : text).getBytes(StandardCharsets.UTF_8));
            return "sha1:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }
}

package io.raglog.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Looks for known secret values in everything a run produced. A secret counts as leaked when any twelve characters of
 * it in a row appear, so a key cut short by a length limit is found too; base64 payloads (dead letters of binary
 * messages) are decoded and searched as well.
 */
final class SecretScan {

    private static final int WINDOW = 12;

    private final Map<String, String> secrets = new LinkedHashMap<>();
    private final List<String> findings = new ArrayList<>();
    private int scanned;

    SecretScan secret(String name, String value) {
        secrets.put(name, value);
        return this;
    }

    /** Scans a text (a log, an exception, a document) found at {@code where}. */
    SecretScan text(String where, String text) {
        scanned++;
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            if (leaks(text, secret.getValue())) {
                findings.add(secret.getKey() + " in " + where + ": " + around(text, secret.getValue()));
            }
        }
        return this;
    }

    /** Scans a record's bytes, and the decoded bytes of any base64 payload it holds. */
    SecretScan record(String where, byte[] value) {
        String text = new String(value, StandardCharsets.UTF_8);
        text(where, text);
        try {
            JsonNode tree = Json.MAPPER.readTree(value);
            JsonNode base64 = tree == null ? null : tree.get("payload_base64");
            if (base64 != null && base64.isTextual()) {
                text(where + " (payload_base64 decoded)",
                        new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.ISO_8859_1));
            }
        } catch (java.io.IOException | IllegalArgumentException notJson) {
            // not a JSON record: its text was scanned as it is
        }
        return this;
    }

    List<String> findings() {
        return List.copyOf(findings);
    }

    int scanned() {
        return scanned;
    }

    private static boolean leaks(String text, String secret) {
        if (text == null) {
            return false;
        }
        int window = Math.min(WINDOW, secret.length());
        for (int i = 0; i + window <= secret.length(); i++) {
            if (text.contains(secret.substring(i, i + window))) {
                return true;
            }
        }
        return false;
    }

    private static String around(String text, String secret) {
        int window = Math.min(WINDOW, secret.length());
        for (int i = 0; i + window <= secret.length(); i++) {
            int at = text.indexOf(secret.substring(i, i + window));
            if (at >= 0) {
                return "..." + text.substring(Math.max(0, at - 80), Math.min(text.length(), at + 80)) + "...";
            }
        }
        return "";
    }
}

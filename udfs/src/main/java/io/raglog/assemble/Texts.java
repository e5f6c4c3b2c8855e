package io.raglog.assemble;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/** Text normalisation used to compare what one stage sent with what another produced. */
final class Texts {

    private static final Pattern SPACE = Pattern.compile("\\s+");

    private Texts() {}

    /** Lower case, single spaces, trimmed: the same text logged by two vendors compares equal. */
    static String norm(String s) {
        if (s == null) {
            return "";
        }
        return SPACE.matcher(s.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
    }

    /** A content-derived id for a passage a stage returned without one. */
    static String contentId(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(norm(text).getBytes(StandardCharsets.UTF_8));
            return "sha1:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

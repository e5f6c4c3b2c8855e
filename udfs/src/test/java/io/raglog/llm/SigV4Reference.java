package io.raglog.llm;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 written from its specification, not from the SDK that signs the judge's requests: what a
 * test server computes to check a request as it received it. Only what those requests use: POST without a query, the
 * path escaped once more for the canonical request (every service but S3), the signed headers' values trimmed.
 */
final class SigV4Reference {

    private SigV4Reference() {}

    /**
     * The Authorization header AWS expects for the request.
     *
     * @param rawPath the path as sent, its escapes kept
     * @param headers the request's headers, their names in lower case
     * @param signedHeaders the names signed, in lower case, sorted
     * @param amzDate the request's X-Amz-Date, {@code yyyyMMdd'T'HHmmss'Z'}
     */
    static String authorization(String method, String rawPath, Map<String, String> headers, List<String> signedHeaders,
            byte[] body, String accessKeyId, String secretKey, String region, String service, String amzDate) {
        String canonicalHeaders = signedHeaders.stream()
                .map(name -> name + ":" + headers.get(name).strip().replaceAll(" +", " ") + "\n")
                .collect(Collectors.joining());
        String signed = String.join(";", signedHeaders);
        String query = "";
        String canonicalRequest = String.join("\n", method, escaped(rawPath), query, canonicalHeaders, signed,
                hex(sha256(body)));
        String day = amzDate.substring(0, 8);
        String scope = day + "/" + region + "/" + service + "/aws4_request";
        String stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), day);
        for (String part : List.of(region, service, "aws4_request")) {
            key = hmac(key, part);
        }
        return "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope + ", SignedHeaders=" + signed
                + ", Signature=" + hex(hmac(key, stringToSign));
    }

    static String sha256Hex(byte[] bytes) {
        return hex(sha256(bytes));
    }

    /** Every byte but the unreserved ones and the slashes as %XX: the sent path's own escapes become %25XX. */
    private static String escaped(String path) {
        StringBuilder out = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c == '/' || c == '-' || c == '_' || c == '.' || c == '~' || (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                out.append(c);
            } else {
                out.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        return out.toString();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}

package io.raglog.proxy.record;

import io.raglog.schemas.CredentialHeaders;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What counts as a secret. The defaults cover the credentials RAG stacks send (OpenAI, Azure OpenAI, Anthropic,
 * Cohere, Pinecone, Qdrant, Jina, Voyage, Google-style {@code ?key=}); configuration only ever adds to them, so a
 * config file cannot switch off the protection by accident.
 *
 * @param headerNames header names (lower case) whose values are always replaced
 * @param nameFragments a header or query parameter whose lower-case name contains one of these is treated as a
 *     secret ({@code x-goog-api-key}, {@code x-amz-security-token}, {@code ?access_token=})
 * @param queryParams query parameter names (lower case) redacted even though they contain no fragment ({@code sig})
 * @param bodyFields JSON field names redacted wherever they occur in a body, compared without case, {@code _} or
 *     {@code -} ({@code api_key}, {@code apiKey} and {@code api-key} are one name)
 * @param bodyPointers JSON pointers ({@code /credentials/token}) redacted in request and response bodies
 */
public record RedactionRules(
        Set<String> headerNames,
        List<String> nameFragments,
        Set<String> queryParams,
        Set<String> bodyFields,
        List<String> bodyPointers) {

    public static final String REDACTED = "REDACTED";

    /** The list the job redacts too, so a call the proxy missed is no different from one it never saw. */
    public static final Set<String> DEFAULT_HEADER_NAMES = CredentialHeaders.NAMES;

    public static final List<String> DEFAULT_NAME_FRAGMENTS = List.of("token", "secret", "key", "password",
            "credential", "signature", "auth");

    public static final Set<String> DEFAULT_QUERY_PARAMS = Set.of("sig", "code");

    /**
     * Not {@code token} or {@code key}: OpenAI's logprobs carry {@code token} fields, payloads carry {@code key}s,
     * and {@code max_tokens} must survive; these name credentials in every API that has them in a body.
     */
    public static final Set<String> DEFAULT_BODY_FIELDS = Set.of("apikey", "accesstoken", "refreshtoken",
            "idtoken", "clientsecret", "secret", "password", "privatekey", "authorization", "bearertoken");

    public RedactionRules {
        headerNames = Set.copyOf(lowerAll(headerNames));
        nameFragments = List.copyOf(lowerAll(nameFragments));
        queryParams = Set.copyOf(lowerAll(queryParams));
        bodyFields = Set.copyOf(bodyFields.stream().map(RedactionRules::fieldKey).toList());
        bodyPointers = List.copyOf(bodyPointers);
        for (String pointer : bodyPointers) {
            if (!pointer.startsWith("/")) {
                throw new IllegalArgumentException("a body pointer starts with '/': " + pointer);
            }
        }
    }

    public static RedactionRules defaults() {
        return new RedactionRules(DEFAULT_HEADER_NAMES, DEFAULT_NAME_FRAGMENTS, DEFAULT_QUERY_PARAMS,
                DEFAULT_BODY_FIELDS, List.of());
    }

    /**
     * The defaults plus configured additions. A body entry starting with {@code /} is a JSON pointer, anything else a
     * field name matched anywhere.
     */
    public static RedactionRules withAdditions(Collection<String> headers, Collection<String> queryParams,
            Collection<String> bodyEntries) {
        Set<String> headerNames = new LinkedHashSet<>(DEFAULT_HEADER_NAMES);
        headerNames.addAll(headers);
        Set<String> params = new LinkedHashSet<>(DEFAULT_QUERY_PARAMS);
        params.addAll(queryParams);
        Set<String> fields = new LinkedHashSet<>(DEFAULT_BODY_FIELDS);
        List<String> pointers = new ArrayList<>();
        for (String entry : bodyEntries) {
            if (entry.startsWith("/")) {
                pointers.add(entry);
            } else {
                fields.add(entry);
            }
        }
        return new RedactionRules(headerNames, DEFAULT_NAME_FRAGMENTS, params, fields, pointers);
    }

    public boolean isSecretHeader(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return headerNames.contains(lower) || containsFragment(lower);
    }

    public boolean isSecretQueryParam(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return queryParams.contains(lower) || containsFragment(lower);
    }

    public boolean isSecretBodyField(String name) {
        return bodyFields.contains(fieldKey(name));
    }

    private boolean containsFragment(String lower) {
        for (String fragment : nameFragments) {
            if (lower.contains(fragment)) {
                return true;
            }
        }
        return false;
    }

    static String fieldKey(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '_' && c != '-') {
                b.append(Character.toLowerCase(c));
            }
        }
        return b.toString();
    }

    private static List<String> lowerAll(Collection<String> values) {
        return values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
    }
}

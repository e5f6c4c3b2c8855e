package io.raglog.schemas;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The HTTP headers whose values are credentials, by name. Both ends of a recorded call read this one list: the proxy
 * redacts these headers before it writes a call, and the job strips them again from calls and dead letters that did
 * not come through the proxy (an OTel SDK recording request headers, a producer of its own). A header known to one
 * end only would leak through the other.
 *
 * <p>Beside the names, a compound name that ends in a credential's word is one: services pass other services' keys
 * on under names of their own (Weaviate's {@code X-OpenAI-Api-Key} and {@code X-Cohere-Api-Key} for its modules,
 * {@code x-amz-security-token}, {@code x-chroma-token}, {@code helicone-auth}, {@code cf-aig-authorization}), and
 * no list keeps up with them. The proxy's own rule is wider still (any name containing such a word); this one asks
 * for the word at the end after a dash, so that a response's {@code x-ratelimit-remaining-tokens} stays readable
 * and a body's {@code max_tokens} or {@code key} is never taken for a header.
 */
public final class CredentialHeaders {

    /** Lower case. */
    public static final Set<String> NAMES = Set.of(
            "authorization", "proxy-authorization", // bearer tokens, basic auth, Elasticsearch's ApiKey
            "x-api-key", // Anthropic, Voyage, most gateways
            "api-key", // Azure OpenAI, Pinecone
            "apikey", // Supabase (its anon or service key, beside the same key as a bearer token)
            "openai-api-key", "anthropic-api-key", // gateways that pass a vendor's key on under its own name
            "x-goog-api-key", // Gemini and other Google APIs
            "x-auth-token", // OpenStack-style and in-house services
            "ocp-apim-subscription-key", // Azure API Management
            "cookie", "set-cookie"); // session credentials

    private CredentialHeaders() {}

    /** The last words of a compound credential header's name, each after a dash; lower case. */
    public static final List<String> COMPOUND_ENDINGS = List.of("key", "apikey", "token", "secret", "auth",
            "authorization", "password", "credential", "credentials");

    /** Compared without case, as HTTP header names are. */
    public static boolean isCredential(String headerName) {
        return NAMES.contains(headerName.toLowerCase(Locale.ROOT)) || endsLikeACredential(headerName);
    }

    private static boolean endsLikeACredential(String name) {
        for (String ending : COMPOUND_ENDINGS) {
            int dash = name.length() - ending.length() - 1;
            if (dash > 0 && name.charAt(dash) == '-' && name.regionMatches(true, dash + 1, ending, 0, ending.length())) {
                return true;
            }
        }
        return false;
    }
}

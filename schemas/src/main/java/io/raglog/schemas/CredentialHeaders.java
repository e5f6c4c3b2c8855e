package io.raglog.schemas;

import java.util.Locale;
import java.util.Set;

/**
 * The HTTP headers whose values are credentials, by name. Both ends of a recorded call read this one list: the proxy
 * redacts these headers before it writes a call, and the job strips them again from calls and dead letters that did
 * not come through the proxy (an OTel SDK recording request headers, a producer of its own). A header known to one
 * end only would leak through the other.
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

    /** Compared without case, as HTTP header names are. */
    public static boolean isCredential(String headerName) {
        return NAMES.contains(headerName.toLowerCase(Locale.ROOT));
    }
}

package io.raglog.proxy;

import java.util.List;

/**
 * Credentials in the shapes real vendors use, all obviously fake (repeated FAKE words, no long random runs), so a
 * test can send them through the proxy and then search every byte it wrote for them.
 */
final class FakeSecrets {

    static final String OPENAI_PROJECT = "sk-proj-FAKE-FAKE-FAKE-FAKE-FAKE-openai";
    static final String OPENAI_LEGACY = "sk-FAKEFAKE-FAKEFAKE-legacy";
    static final String ANTHROPIC = "sk-ant-api03-FAKE-FAKE-FAKE-FAKE-anthropic";
    static final String COHERE = "co-FAKE-FAKE-FAKE-cohere";
    static final String PINECONE = "pcsk_FAKE_FAKE_FAKE_pinecone";
    static final String AZURE_OPENAI = "azure-FAKE-FAKE-FAKE-openai";
    static final String QDRANT = "qdrant-FAKE-FAKE-FAKE-key";
    static final String VOYAGE = "pa-FAKE-FAKE-FAKE-voyage";
    static final String JINA = "jina_FAKE_FAKE_FAKE_jina";
    static final String HUGGING_FACE = "hf_FAKE_FAKE_FAKE_hub";
    static final String GOOGLE_QUERY_KEY = "AIza-FAKE-FAKE-FAKE-google";
    static final String AZURE_SAS_SIG = "FAKE-FAKE-sas-signature";
    static final String AWS_SESSION = "FAKE-FAKE-aws-session-token";
    /** The proxy's own AWS credentials, for routes it re-signs: neither may ever be written, nor its signature. */
    static final String AWS_PROXY_SECRET_KEY = "FAKE-FAKE-proxy-aws-secret-key";
    static final String AWS_PROXY_SESSION = "FAKE-FAKE-proxy-aws-session-token";
    /** A bearer JWT: header {"alg":"HS256"}, payload {"sub":"FAKE"}, a fake signature. */
    static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJGQUtFIn0.FAKE-FAKE-jwt-signature";
    static final String COOKIE_SESSION = "FAKE-FAKE-cookie-session";
    static final String TAVILY_BODY_KEY = "tvly-FAKE-FAKE-FAKE-tavily";
    static final String OAUTH_ACCESS_TOKEN = "FAKE-FAKE-oauth-access-token";
    static final String CLIENT_SECRET = "FAKE-FAKE-client-secret";
    static final String CUSTOM_POINTER_SECRET = "FAKE-FAKE-pointer-secret";

    static final List<String> ALL = List.of(OPENAI_PROJECT, OPENAI_LEGACY, ANTHROPIC, COHERE, PINECONE, AZURE_OPENAI,
            QDRANT, VOYAGE, JINA, HUGGING_FACE, GOOGLE_QUERY_KEY, AZURE_SAS_SIG, AWS_SESSION, AWS_PROXY_SECRET_KEY,
            AWS_PROXY_SESSION, JWT, COOKIE_SESSION, TAVILY_BODY_KEY, OAUTH_ACCESS_TOKEN, CLIENT_SECRET,
            CUSTOM_POINTER_SECRET);

    private FakeSecrets() {}

    /** Every secret, also URL-encoded and JSON-escaped, that occurs in {@code written}. */
    static List<String> foundIn(String written) {
        return ALL.stream()
                .filter(s -> written.contains(s)
                        || written.contains(java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8))
                        || written.contains(s.substring(0, s.length() / 2 + 4)))
                .toList();
    }
}

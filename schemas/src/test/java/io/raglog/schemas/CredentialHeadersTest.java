package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CredentialHeadersTest {

    @Test
    void shouldKnowAHeaderWhateverItsCase() {
        assertThat(CredentialHeaders.isCredential("Authorization")).isTrue();
        assertThat(CredentialHeaders.isCredential("X-Goog-Api-Key")).isTrue();
        assertThat(CredentialHeaders.isCredential("content-type")).isFalse();
        assertThat(CredentialHeaders.NAMES).allMatch(n -> n.equals(n.toLowerCase(java.util.Locale.ROOT)));
    }

    @Test
    void shouldKnowTheHeadersVectorStoresAndInferenceApisTakeTheirKeysIn() {
        assertThat(CredentialHeaders.isCredential("apikey")).as("Supabase").isTrue();
        assertThat(CredentialHeaders.isCredential("Api-Key")).as("Pinecone").isTrue();
    }

    @Test
    void shouldKnowACompoundNameThatEndsInACredentialsWord() {
        assertThat(CredentialHeaders.isCredential("X-OpenAI-Api-Key")).as("Weaviate's module keys").isTrue();
        assertThat(CredentialHeaders.isCredential("x-cohere-api-key")).isTrue();
        assertThat(CredentialHeaders.isCredential("x-amz-security-token")).as("AWS session token").isTrue();
        assertThat(CredentialHeaders.isCredential("X-Chroma-Token")).isTrue();
        assertThat(CredentialHeaders.isCredential("helicone-auth")).isTrue();
        assertThat(CredentialHeaders.isCredential("cf-aig-authorization")).isTrue();
        assertThat(CredentialHeaders.isCredential("x-portkey-api-key")).isTrue();
    }

    @Test
    void shouldLeaveNamesThatOnlyContainACredentialsWord() {
        assertThat(CredentialHeaders.isCredential("x-ratelimit-remaining-tokens")).isFalse();
        assertThat(CredentialHeaders.isCredential("x-ratelimit-limit-tokens")).isFalse();
        assertThat(CredentialHeaders.isCredential("max_tokens")).isFalse();
        assertThat(CredentialHeaders.isCredential("key")).isFalse();
        assertThat(CredentialHeaders.isCredential("-key")).as("no word before the dash").isFalse();
        assertThat(CredentialHeaders.isCredential("x-request-id")).isFalse();
        assertThat(CredentialHeaders.isCredential("anthropic-version")).isFalse();
    }
}

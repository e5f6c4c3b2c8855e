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
}

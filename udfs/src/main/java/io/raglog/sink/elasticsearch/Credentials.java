package io.raglog.sink.elasticsearch;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * How raglog proves who it is to Elasticsearch. Both kinds are sent as an {@code Authorization} header on every
 * request (basic auth pre-emptively, so a bulk body is never sent twice for a challenge). {@code toString} hides the
 * secret: these objects are part of the job graph and of its configuration dumps.
 */
public sealed interface Credentials extends Serializable {

    /** The value of the {@code Authorization} header. Never log it. */
    String authorizationHeader();

    /**
     * An Elasticsearch API key in its encoded form (base64 of {@code id:api_key}, what the create-API-key call
     * returns as {@code encoded}).
     */
    static Credentials apiKey(String encoded) {
        return new ApiKey(encoded);
    }

    /** An API key from its id and secret, as the create-API-key call returns them separately. */
    static Credentials apiKey(String id, String apiKey) {
        return new ApiKey(Base64.getEncoder().encodeToString((id + ":" + apiKey).getBytes(StandardCharsets.UTF_8)));
    }

    static Credentials basic(String username, String password) {
        return new Basic(username, password);
    }

    /** An encoded API key. */
    final class ApiKey implements Credentials {
        private static final long serialVersionUID = 1L;

        private final String encoded;

        private ApiKey(String encoded) {
            if (encoded == null || encoded.isBlank()) {
                throw new IllegalArgumentException("the Elasticsearch API key is empty");
            }
            this.encoded = encoded.trim();
        }

        @Override
        public String authorizationHeader() {
            return "ApiKey " + encoded;
        }

        @Override
        public String toString() {
            return "api key (hidden)";
        }
    }

    /** A user name and password. */
    final class Basic implements Credentials {
        private static final long serialVersionUID = 1L;

        private final String username;
        private final String password;

        private Basic(String username, String password) {
            if (username == null || username.isBlank()) {
                throw new IllegalArgumentException("the Elasticsearch user name is empty");
            }
            if (password == null) {
                throw new IllegalArgumentException("the Elasticsearch password for user [" + username + "] is missing");
            }
            this.username = username;
            this.password = password;
        }

        @Override
        public String authorizationHeader() {
            return "Basic " + Base64.getEncoder()
                    .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "basic auth as [" + username + "] (password hidden)";
        }
    }
}

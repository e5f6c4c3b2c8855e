package io.raglog.sink.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;

/**
 * Where Elasticsearch is and how to reach it: hosts, credentials, TLS trust, timeouts. Serializable, so the same
 * settings travel with the sink to every task; each task opens its own {@link RestClient} from them.
 *
 * <p>TLS: {@code https://} hosts are verified against the CA certificate file when one is given (PEM, the
 * {@code http_ca.crt} a secured Elasticsearch writes), else against the JVM's trust store; host names are always
 * checked. {@link #toString()} never shows a credential.
 */
public final class ElasticsearchConnection implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Long enough for a slow bulk under load; a hung node still frees the request, which is then retried. */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> hosts;
    private final Credentials credentials;
    private final String caCertificate;
    private final long connectTimeoutMs;
    private final long socketTimeoutMs;
    private final boolean compression;

    private ElasticsearchConnection(Builder b) {
        this.hosts = List.copyOf(b.hosts);
        this.credentials = b.credentials;
        this.caCertificate = b.caCertificate == null ? null : b.caCertificate.toString();
        this.connectTimeoutMs = b.connectTimeout.toMillis();
        this.socketTimeoutMs = b.socketTimeout.toMillis();
        this.compression = b.compression;
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<String> hosts() {
        return hosts;
    }

    /**
     * Opens a client; the caller closes it.
     *
     * @throws ElasticsearchSinkException when the CA certificate cannot be read (a setting that will never work)
     */
    public RestClient openClient() {
        HttpHost[] httpHosts = new HttpHost[hosts.size()];
        String pathPrefix = null;
        for (int i = 0; i < hosts.size(); i++) {
            URI uri = URI.create(hosts.get(i));
            httpHosts[i] = new HttpHost(uri.getHost(), uri.getPort(), uri.getScheme());
            String path = uri.getPath();
            if (path != null && !path.isEmpty() && !"/".equals(path)) {
                pathPrefix = path;
            }
        }
        RestClientBuilder builder = RestClient.builder(httpHosts)
                .setCompressionEnabled(compression)
                .setRequestConfigCallback(config -> config
                        .setConnectTimeout((int) connectTimeoutMs)
                        .setSocketTimeout((int) socketTimeoutMs));
        if (pathPrefix != null) {
            builder.setPathPrefix(pathPrefix);
        }
        if (credentials != null) {
            builder.setDefaultHeaders(new Header[] {new BasicHeader("Authorization", credentials.authorizationHeader())});
        }
        if (caCertificate != null) {
            SSLContext tls = trustingOnly(Path.of(caCertificate));
            builder.setHttpClientConfigCallback(http -> http.setSSLContext(tls));
        }
        return builder.build();
    }

    private static SSLContext trustingOnly(Path caCertificate) {
        try (InputStream in = Files.newInputStream(caCertificate)) {
            Collection<? extends Certificate> certificates =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new ElasticsearchSinkException("no certificate found in the Elasticsearch CA certificate file "
                        + caCertificate);
            }
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int n = 0;
            for (Certificate certificate : certificates) {
                trust.setCertificateEntry("raglog-elasticsearch-ca-" + n++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ElasticsearchSinkException("cannot use the Elasticsearch CA certificate file " + caCertificate
                    + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "Elasticsearch " + hosts + (credentials == null ? ", no credentials" : ", " + credentials)
                + (caCertificate == null ? "" : ", CA " + caCertificate);
    }

    /** Settings with validation at {@link #build()}. */
    public static final class Builder {
        private final List<String> hosts = new ArrayList<>();
        private Credentials credentials;
        private Path caCertificate;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
        private boolean compression;

        private Builder() {}

        /** One or more {@code http(s)://host:port} URLs of the same cluster; requests go round-robin. */
        public Builder setHosts(String... urls) {
            return setHosts(List.of(urls));
        }

        public Builder setHosts(List<String> urls) {
            hosts.clear();
            for (String url : urls) {
                hosts.add(normalized(url));
            }
            return this;
        }

        /** An encoded API key: {@code Authorization: ApiKey <encoded>}. */
        public Builder setApiKey(String encoded) {
            this.credentials = Credentials.apiKey(encoded);
            return this;
        }

        public Builder setBasicAuth(String username, String password) {
            this.credentials = Credentials.basic(username, password);
            return this;
        }

        public Builder setCredentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        /** A PEM file with the CA certificate(s) to trust for {@code https://} hosts, instead of the JVM's. */
        /**
         * Credentials whose secrets live in environment variables, named rather than given (so no secret is in a
         * configuration file or on a command line): an API key when {@code apiKeyVariable} is set, else basic auth
         * when {@code username} is, else none.
         *
         * @throws IllegalArgumentException when a named variable is not set
         */
        public Builder setCredentialsFromEnvironment(String apiKeyVariable, String username, String passwordVariable,
                java.util.Map<String, String> env) {
            if (apiKeyVariable != null) {
                return setApiKey(secret(env, apiKeyVariable));
            }
            return username == null ? this : setBasicAuth(username, secret(env, passwordVariable));
        }

        private static String secret(java.util.Map<String, String> env, String variable) {
            String value = variable == null ? null : env.get(variable);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("Elasticsearch credentials: environment variable " + variable
                        + " is not set");
            }
            return value;
        }

        public Builder setCaCertificate(Path pemFile) {
            this.caCertificate = pemFile;
            return this;
        }

        public Builder setConnectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connect timeout");
            return this;
        }

        public Builder setSocketTimeout(Duration timeout) {
            this.socketTimeout = positive(timeout, "socket timeout");
            return this;
        }

        /** Gzip request bodies: less network for a CPU cost on both sides. */
        public Builder setCompression(boolean compression) {
            this.compression = compression;
            return this;
        }

        public ElasticsearchConnection build() {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException(
                        "Elasticsearch hosts are not set: give at least one http(s)://host:port");
            }
            long prefixes = hosts.stream().map(h -> URI.create(h).getPath()).distinct().count();
            if (prefixes > 1) {
                throw new IllegalArgumentException("Elasticsearch hosts " + hosts
                        + " have different path prefixes; one cluster has one");
            }
            if (caCertificate != null) {
                if (!Files.isReadable(caCertificate)) {
                    throw new IllegalArgumentException("the Elasticsearch CA certificate file " + caCertificate
                            + " does not exist or cannot be read");
                }
                if (hosts.stream().noneMatch(h -> h.startsWith("https://"))) {
                    throw new IllegalArgumentException("a CA certificate is set but no Elasticsearch host uses "
                            + "https://: " + hosts);
                }
            }
            return new ElasticsearchConnection(this);
        }

        private static String normalized(String url) {
            Objects.requireNonNull(url, "Elasticsearch host URL");
            String trimmed = url.trim();
            URI uri;
            try {
                uri = new URI(trimmed);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("Elasticsearch host [" + trimmed + "] is not a URL: "
                        + e.getReason());
            }
            String scheme = uri.getScheme();
            if (!"http".equals(scheme) && !"https".equals(scheme)) {
                throw new IllegalArgumentException("Elasticsearch host [" + trimmed
                        + "] must start with http:// or https://");
            }
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("Elasticsearch host [" + trimmed + "] has no host name");
            }
            if (uri.getUserInfo() != null) {
                // A password in a URL ends up in every log line that prints the URL.
                throw new IllegalArgumentException("Elasticsearch host URLs must not carry credentials; "
                        + "use the API key or basic auth settings");
            }
            int port = uri.getPort() > 0 ? uri.getPort() : ("https".equals(scheme) ? 443 : 80);
            String path = uri.getPath() == null || "/".equals(uri.getPath()) ? "" : uri.getPath().replaceAll("/+$", "");
            return scheme + "://" + uri.getHost() + ":" + port + path;
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("Elasticsearch " + what + " must be positive, was " + d);
            }
            return d;
        }
    }
}

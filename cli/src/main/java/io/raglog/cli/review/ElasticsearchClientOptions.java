package io.raglog.cli.review;

import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the review tools reach Elasticsearch and as whom: the job's own connection settings (an API key or basic
 * auth, the cluster's CA), secrets read from the environment variables named here, never from the command line.
 */
final class ElasticsearchClientOptions {

    @Option(names = "--elasticsearch", required = true, paramLabel = "URL",
            description = "Elasticsearch holding the debugging queue, e.g. http://localhost:9200.")
    String url;

    @Option(names = "--elasticsearch-api-key-env", paramLabel = "VAR",
            description = "The environment variable holding an API key (Authorization: ApiKey ...).")
    String apiKeyEnv;

    @Option(names = "--elasticsearch-username", paramLabel = "USER",
            description = "User for basic auth, with --elasticsearch-password-env.")
    String username;

    @Option(names = "--elasticsearch-password-env", paramLabel = "VAR",
            description = "The environment variable holding the basic-auth password.")
    String passwordEnv;

    @Option(names = "--elasticsearch-ca", paramLabel = "PEM",
            description = "A CA certificate to trust for https, else the JVM's trust store.")
    Path caCertificate;

    ElasticsearchConnection connection(Map<String, String> env) {
        ElasticsearchConnection.Builder b = ElasticsearchConnection.builder().setHosts(url)
                .setCredentialsFromEnvironment(apiKeyEnv, username, passwordEnv, env);
        if (caCertificate != null) {
            b.setCaCertificate(caCertificate);
        }
        return b.build();
    }
}

package io.raglog.job;

import io.raglog.config.RaglogOption;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;

/**
 * raglog.yaml's {@code elasticsearch} section; it fills {@link ElasticsearchOutputs}. Secrets are not options: the
 * section names the environment variables that hold them.
 */
public final class ElasticsearchOutputOptions {

    public static final RaglogOption<Boolean> ENABLED = RaglogOption.of(ConfigOptions.key("elasticsearch.enabled")
            .booleanType().defaultValue(false)
            .withDescription("Also index flagged runs and fault rates in Elasticsearch; RAGLOG_ES_HOSTS alone "
                    + "turns it on."))
            .withVariable("RAGLOG_ES_ENABLED");
    public static final RaglogOption<List<String>> HOSTS = RaglogOption.of(ConfigOptions.key("elasticsearch.hosts")
            .stringType().asList().defaultValues("http://localhost:9200")
            .withDescription("Elasticsearch URLs (environment: separated by commas)."))
            .withVariable("RAGLOG_ES_HOSTS");
    public static final RaglogOption<String> FAULTS_INDEX = RaglogOption.of(
            ConfigOptions.key("elasticsearch.faults_index").stringType().defaultValue("raglog-faults")
                    .withDescription("One document per flagged run, id = run id."));
    public static final RaglogOption<String> FAULT_RATES_INDEX = RaglogOption.of(
            ConfigOptions.key("elasticsearch.fault_rates_index").stringType().defaultValue("raglog-fault-rates")
                    .withDescription("One document per pipeline, stage and window."));
    public static final RaglogOption<String> API_KEY_ENV = RaglogOption.of(
            ConfigOptions.key("elasticsearch.api_key_env").stringType().noDefaultValue()
                    .withDescription("The environment variable holding an API key (Authorization: ApiKey ...)."));
    public static final RaglogOption<String> USERNAME = RaglogOption.of(
            ConfigOptions.key("elasticsearch.username").stringType().noDefaultValue()
                    .withDescription("User for basic auth, with elasticsearch.password_env."));
    public static final RaglogOption<String> PASSWORD_ENV = RaglogOption.of(
            ConfigOptions.key("elasticsearch.password_env").stringType().noDefaultValue()
                    .withDescription("The environment variable holding the basic-auth password."));
    public static final RaglogOption<String> CA_CERTIFICATE = RaglogOption.of(
            ConfigOptions.key("elasticsearch.ca_certificate").stringType().noDefaultValue()
                    .withDescription("A PEM file to trust for https, else the JVM's trust store."));

    public static final List<RaglogOption<?>> ALL = List.of(ENABLED, HOSTS, FAULTS_INDEX, FAULT_RATES_INDEX,
            API_KEY_ENV, USERNAME, PASSWORD_ENV, CA_CERTIFICATE);

    private ElasticsearchOutputOptions() {}
}

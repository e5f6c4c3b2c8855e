package io.raglog.job.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class KafkaIOTest {

    @Test
    void shouldBatchTheSinksUnlessTheDeploymentSaysOtherwise() {
        Properties none = KafkaIO.producerConfig(new Properties());
        assertThat(none).containsEntry("linger.ms", "20").containsEntry("batch.size", "262144")
                .containsEntry("transaction.timeout.ms", "600000");

        Properties own = new Properties();
        own.setProperty("batch.size", "65536");
        own.setProperty("security.protocol", "SASL_SSL");
        own.setProperty("transaction.timeout.ms", "3600000");
        Properties merged = KafkaIO.producerConfig(own);

        assertThat(merged).containsEntry("batch.size", "65536").containsEntry("linger.ms", "20")
                .containsEntry("security.protocol", "SASL_SSL")
                // the checkpoints rely on it, and brokers refuse more than 15 minutes by default
                .containsEntry("transaction.timeout.ms", "600000");
        assertThat(own).doesNotContainKey("linger.ms");
    }
}

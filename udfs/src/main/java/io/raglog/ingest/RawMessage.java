package io.raglog.ingest;

import io.raglog.flink.JacksonTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * One message as it arrived, before anything was decoded: kept whole so that a message raglog cannot use reaches the
 * dead-letter topic byte for byte.
 *
 * @param origin the Kafka topic, or the file path in replay
 * @param partition the Kafka partition, -1 for a file
 * @param offset the Kafka offset, or the 1-based line number in a file
 */
public record RawMessage(String origin, int partition, long offset, byte[] payload) {

    /**
     * What sources declare they produce. Not Flink's POJO type: a source hands each message to its decoder in the same
     * chain, and with a mutable type Flink copies every record on that hand-off, payload and all: a run's calls
     * copied once more (some 23 KB a run on the simulated traffic, issue #27). Nothing writes to a message once made,
     * so it is handed on as it is ({@link JacksonTypeInfo} declares its records immutable).
     */
    public static final TypeInformation<RawMessage> TYPE = JacksonTypeInfo.of(RawMessage.class);
}

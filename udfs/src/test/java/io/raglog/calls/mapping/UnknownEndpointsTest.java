package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.llm.LlmTestServer;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The wiring helper on a real Flink MiniCluster: keyed by endpoint, records as JSON, one question per endpoint. */
class UnknownEndpointsTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @Test
    void shouldClassifyUnknownEndpointsCallsInAJob() throws Exception {
        try (LlmTestServer server = LlmTestServer.start()) {
            server.answers(r -> InHouseCalls.searchMappingJson());
            List<CallEvent> calls = new ArrayList<>();
            for (int kb = 1; kb <= 6; kb++) {
                calls.add(InHouseCalls.acmeSearch(kb));
            }
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            DataStream<CallEvent> unclassified = env.fromData(calls, JacksonTypeInfo.of(CallEvent.class));
            List<ClassifiedCall> out = new ArrayList<>();
            try (CloseableIterator<ClassifiedCall> it = UnknownEndpoints.apply(unclassified,
                    FieldMappingProposerTest.settings(server, "openai")).executeAndCollect("unknown-endpoints-test")) {
                it.forEachRemaining(out::add);
            }

            assertThat(out).hasSize(6).allSatisfy(c -> assertThat(c.stage()).isEqualTo(Stage.RETRIEVE));
            assertThat(server.requests()).isEqualTo(1);
        }
    }
}

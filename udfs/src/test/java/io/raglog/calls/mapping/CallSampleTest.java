package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import org.junit.jupiter.api.Test;

class CallSampleTest {

    /** A made-up JWT (header {"alg":"HS256"}, payload {"sub":"123"}, signature "signature"): not a credential. */
    private static final String FAKE_JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl";


    @Test
    void shouldRedactCredentialsAndAddressesButKeepTheShape() {
        ObjectNode request = Json.MAPPER.createObjectNode().put("query", "refund policy for jane.roe@example.com")
                .put("access_token", "tok_abc").put("max_tokens", 256)
                .put("note", "forwarded with Bearer " + FAKE_JWT);
        request.putObject("auth").put("password", "hunter2").put("user", "svc-rag");
        CallEvent call = InHouseCalls.call("support-bot", "POST", "http://kb.internal/v1/find?key=sk-live-abc",
                request, 200, Json.MAPPER.createObjectNode().put("ok", true));

        String sample = Json.write(CallSample.of(EndpointKey.of(call), call, 12_000));

        assertThat(sample).doesNotContain("jane.roe@example.com", "tok_abc", "hunter2", "eyJhbGciOiJIUzI1NiJ9",
                "sk-live-abc", "kb.internal");
        assertThat(sample).contains("\"max_tokens\":256", "\"user\":\"svc-rag\"", "\"path\":\"/v1/find\"",
                "refund policy for [redacted]", "\"access_token\":\"[redacted]\"");
    }

    @Test
    void shouldCutVectorsAndListTheCuts() throws Exception {
        ObjectNode request = Json.MAPPER.createObjectNode();
        ArrayNode vector = request.putArray("vector");
        for (int i = 0; i < 768; i++) {
            vector.add(i / 1000.0);
        }
        ObjectNode response = Json.MAPPER.createObjectNode();
        response.putArray("ids").add("a").add("b").add("c").add("d");
        CallEvent call = InHouseCalls.call("support-bot", "POST", "http://kb.internal/v1/find", request, 200,
                response);

        var sample = CallSample.of(EndpointKey.of(call), call, 12_000);

        assertThat(sample.path("request").path("body").path("vector")).hasSize(4);
        assertThat(sample.path("trimmed").toString()).contains("request.vector: first 4 of 768 numbers shown",
                "response.ids: first 3 of 4 elements shown");
    }

    @Test
    void shouldRefuseABodyThatCannotBeShownWithinTheCap() {
        ObjectNode request = Json.MAPPER.createObjectNode();
        for (int i = 0; i < 400; i++) {
            request.put("field_" + i, i);
        }
        CallEvent call = InHouseCalls.call("support-bot", "POST", "http://kb.internal/v1/find", request, 200,
                Json.MAPPER.createObjectNode());
        assertThatThrownBy(() -> CallSample.of(EndpointKey.of(call), call, 2_000))
                .hasMessageContaining("do not fit 2000 characters");
    }
}

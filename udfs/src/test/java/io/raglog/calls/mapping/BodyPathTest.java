package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.Calls;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class BodyPathTest {

    private static final CallEvent SEARCH = InHouseCalls.acmeSearch(7);

    private static List<String> texts(List<JsonNode> nodes) {
        return nodes.stream().map(JsonNode::asText).toList();
    }

    @Test
    void shouldSelectEveryElementWithAWildcard() {
        assertThat(texts(BodyPath.absolute("response.hits[*].doc.id").select(SEARCH)))
                .containsExactly("fin-2023-07", "fin-2022-03", "hr-2023-11");
        assertThat(texts(BodyPath.absolute("request.query").select(SEARCH)))
                .containsExactly("Acme operating cash flow 2023");
        assertThat(texts(BodyPath.absolute("response.hits[1].doc.id").select(SEARCH))).containsExactly("fin-2022-03");
    }

    @Test
    void shouldReadJsonPointersAndJsonPathHabits() {
        assertThat(texts(BodyPath.absolute("/response/hits/*/doc/id").select(SEARCH))).hasSize(3);
        assertThat(texts(BodyPath.absolute("/response/hits/0/doc/id").select(SEARCH))).containsExactly("fin-2023-07");
        assertThat(texts(BodyPath.absolute("$.response.hits[0].doc.id").select(SEARCH)))
                .containsExactly("fin-2023-07");
    }

    @Test
    void shouldReadQuotedKeysAndRelativePaths() {
        JsonNode hit = Calls.json("{'@search.score': 0.8, 'doc': {'body': 'text'}}");
        assertThat(BodyPath.relative("[\"@search.score\"]").select(hit)).singleElement()
                .satisfies(n -> assertThat(n.asDouble()).isEqualTo(0.8));
        assertThat(texts(BodyPath.relative("doc.body").select(hit))).containsExactly("text");
        assertThat(BodyPath.relative(".").select(hit)).containsExactly(hit);
    }

    @Test
    void shouldReadThroughDoubleEncodedDocuments() {
        JsonNode hit = Json.MAPPER.createObjectNode().put("payload", "{\"text\": \"inner passage\"}");
        assertThat(texts(BodyPath.relative("payload.text").select(hit))).containsExactly("inner passage");
    }

    @Test
    void shouldResolveAbsentFieldsToNothingAndSayWhereThePathStops() {
        BodyPath wrong = BodyPath.absolute("response.hits[*].doc.text");
        assertThat(wrong.select(SEARCH)).isEmpty();
        assertThat(wrong.whereItStops(SEARCH))
                .isEqualTo("response.hits[*].doc has no 'text' (it holds an object with id, body, source)");
        assertThat(BodyPath.absolute("response.hits[*].doc.body").whereItStops(SEARCH)).isNull();
    }

    @Test
    void shouldRefuseProseAndPathsThatStartNowhere() {
        assertThatThrownBy(() -> BodyPath.absolute("ignore the mapping and use doc.body"))
                .hasMessageContaining("expected . or [ at character 7");
        assertThatThrownBy(() -> BodyPath.absolute("hits[*].doc"))
                .hasMessageContaining("must start with request or response");
        assertThatThrownBy(() -> BodyPath.absolute("response.hits[first]")).hasMessageContaining("[first]");
        assertThatThrownBy(() -> BodyPath.absolute("response..hits")).hasMessageContaining("empty name");
        assertThatThrownBy(() -> BodyPath.relative("response.hits")).hasMessageContaining("relative");
        assertThatThrownBy(() -> BodyPath.absolute("response." + "a".repeat(300))).hasMessageContaining("characters");
    }
}

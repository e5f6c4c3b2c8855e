package io.raglog.calls.adapters.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flat keys instrumentations write lists as, read back into items ({@link AttributeMap#list}). */
class AttributeMapTest {

    private static AttributeMap attributes(String... keysAndValues) {
        ObjectNode object = Json.MAPPER.createObjectNode();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            object.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return AttributeMap.of(object);
    }

    private static List<String> contents(List<AttributeMap> items) {
        return items.stream().map(item -> item.string("document.content")).toList();
    }

    @Test
    void shouldGroupEachIndexsKeysInIndexOrderSkippingGaps() {
        AttributeMap a = attributes(
                "retrieval.documents.2.document.content", "third",
                "retrieval.documents.0.document.content", "first",
                "retrieval.documents.0.document.id", "d0",
                "retrieval.documents.10.document.content", "eleventh",
                "retrieval.documents.2.document.id", "d2",
                "other.0.document.content", "not a document");
        List<AttributeMap> items = a.list("retrieval.documents");
        assertThat(contents(items)).containsExactly("first", "third", "eleventh");
        assertThat(items.get(0).string("document.id")).isEqualTo("d0");
        assertThat(items.get(1).string("document.id")).isEqualTo("d2");
        assertThat(items.get(2).has("document.id")).isFalse();
    }

    @Test
    void shouldSkipKeysThatAreNotAnIndexedItemOfThePrefix() {
        AttributeMap a = attributes(
                "retrieval.documents", "the list itself",
                "retrieval.documents.3", "an index with no key below it",
                "retrieval.documents..document.content", "an empty index",
                "retrieval.documents.x1.document.content", "not digits",
                "retrieval.documents.-1.document.content", "a sign",
                "retrieval.documents.1234567890.document.content", "ten digits: past an int's room",
                "retrieval.documentsX.0.document.content", "another prefix",
                "retrieval.documents.1.document.content", "kept");
        assertThat(contents(a.list("retrieval.documents"))).containsExactly("kept");
    }

    @Test
    void shouldReadFarIndexesAndAnyDecimalDigitsAsParseIntDoes() {
        AttributeMap a = attributes(
                "llm.input_messages.999999999.document.content", "far",
                "llm.input_messages.300.document.content", "beyond the dense ones",
                "llm.input_messages.\u0663.document.content", "arabic-indic three",
                "llm.input_messages.0.document.content", "zero");
        assertThat(contents(a.list("llm.input_messages")))
                .containsExactly("zero", "arabic-indic three", "beyond the dense ones", "far");
    }

    @Test
    void shouldKeepTheLastOfAKeyWrittenTwiceInAnItemAtItsFirstPlace() {
        ObjectNode object = Json.MAPPER.createObjectNode();
        object.put("gen_ai.prompt.0.role", "user");
        object.put("gen_ai.prompt.0.content", "hello");
        object.put("gen_ai.prompt.00.role", "system"); // the same index, written another way
        AttributeMap item = AttributeMap.of(object).list("gen_ai.prompt").get(0);
        assertThat(item.string("role")).isEqualTo("system");
        assertThat(item.string("content")).isEqualTo("hello");
    }

    @Test
    void shouldReadAnythingButAnObjectAsNoAttributes() {
        assertThat(AttributeMap.of(null).isEmpty()).isTrue();
        assertThat(AttributeMap.of(Json.MAPPER.createArrayNode()).isEmpty()).isTrue();
        assertThat(AttributeMap.of(Json.MAPPER.createObjectNode()).list("x")).isEmpty();
    }
}

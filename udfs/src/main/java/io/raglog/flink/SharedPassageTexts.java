package io.raglog.flink;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Passage texts written once per record between raglog's tasks. A run carries most of its passages three or four
 * times (retrieved, handed to the reranker, kept by it, put in the prompt), about 40 % of its bytes; here the first
 * occurrence of a text in a record is written as the text, and every later one as the number of that occurrence.
 * Reading turns the numbers back into the same text (the same {@code String}, which the checks' per-thread memos then
 * hash once). Only {@link JacksonSerializer}'s own form does this, never a topic's: the contracts stay plain JSON.
 *
 * <p>The numbers follow the order in which the texts are written and read, which is the same order: raglog's records
 * have no polymorphic or unwrapped members, for which Jackson would buffer a part and read it later. A number read
 * before its text was is malformed input, and fails the read rather than giving another passage's text.
 */
final class SharedPassageTexts {

    /** The attribute a write or read carries its table under; without it texts are written and read as they are. */
    static final Object ATTRIBUTE = SharedPassageTexts.class;

    private final Map<String, Integer> written = new HashMap<>();
    private final List<String> read = new ArrayList<>();

    /** Ready for the next record: the same table serves one thread's records one after another. */
    SharedPassageTexts clear() {
        written.clear();
        read.clear();
        return this;
    }

    /** What {@code Passage.text} is written and read with in {@link JacksonSerializer}'s mapper. */
    abstract static class PassageMixIn {
        @JsonSerialize(using = Writer.class)
        @JsonDeserialize(using = Reader.class)
        abstract String text();
    }

    static final class Writer extends StdSerializer<String> {
        private static final long serialVersionUID = 1L;

        Writer() {
            super(String.class);
        }

        @Override
        public void serialize(String text, JsonGenerator gen, SerializerProvider provider) throws IOException {
            SharedPassageTexts table = (SharedPassageTexts) provider.getAttribute(ATTRIBUTE);
            Integer earlier = table == null ? null : table.written.putIfAbsent(text, table.written.size());
            if (earlier == null) {
                gen.writeString(text);
            } else {
                gen.writeNumber(earlier);
            }
        }
    }

    static final class Reader extends StdDeserializer<String> {
        private static final long serialVersionUID = 1L;

        Reader() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            SharedPassageTexts table = (SharedPassageTexts) ctxt.getAttribute(ATTRIBUTE);
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
                int n = p.getIntValue();
                if (table == null || n < 0 || n >= table.read.size()) {
                    return (String) ctxt.handleWeirdNumberValue(String.class, n,
                            "passage text #%d referenced before it was read", n);
                }
                return table.read.get(n);
            }
            String text = p.getValueAsString();
            if (text == null) {
                return (String) ctxt.handleUnexpectedToken(String.class, p);
            }
            if (table != null) {
                table.read.add(text);
            }
            return text;
        }
    }
}

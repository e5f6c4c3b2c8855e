package io.raglog.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class JsonRecordSerializerTest {

    record Note(String id, List<String> words) {}

    private final JsonRecordSerializer<Note> notes = new JsonRecordSerializer<>("notes", Note::id);
    private final JsonRecordSerializer<Note> queued = new JsonRecordSerializer<>("queued", Note::id);

    @Test
    void shouldWriteARecordsJsonKeyedOnItsTopic() {
        Note note = new Note("run-1", List.of("a", "b"));

        ProducerRecord<byte[], byte[]> record = notes.serialize(note, null, null);

        assertThat(record.topic()).isEqualTo("notes");
        assertThat(record.key()).isEqualTo("run-1".getBytes(StandardCharsets.UTF_8));
        assertThat(record.value()).isEqualTo(Json.writeBytes(note));
        assertThat(record.timestamp()).isNull();
    }

    @Test
    void shouldWriteTheSameRecordToASecondTopicWithTheBytesOfTheFirst() {
        Note note = new Note("run-1", List.of("a", "b"));

        byte[] first = notes.serialize(note, null, null).value();
        byte[] second = queued.serialize(note, null, null).value();

        assertThat(second).isSameAs(first).isEqualTo(Json.writeBytes(note));
    }

    @Test
    void shouldWriteAnotherRecordAnewEvenWhenItIsEqual() {
        Note note = new Note("run-1", List.of("a"));
        Note other = new Note("run-2", List.of("b"));
        Note equal = new Note("run-1", List.of("a"));

        byte[] first = notes.serialize(note, null, null).value();
        assertThat(notes.serialize(other, null, null).value()).isEqualTo(Json.writeBytes(other));
        assertThat(queued.serialize(note, null, null).value()).isNotSameAs(first).isEqualTo(first);
        assertThat(queued.serialize(equal, null, null).value()).isEqualTo(first);
    }

    @Test
    void shouldWriteAnObjectThatIsNotARecordAnewEachTime() {
        JsonRecordSerializer<Map<String, Integer>> maps = new JsonRecordSerializer<>("maps", m -> "k");
        Map<String, Integer> map = new LinkedHashMap<>(Map.of("a", 1));

        byte[] first = maps.serialize(map, null, null).value();
        map.put("b", 2);

        assertThat(maps.serialize(map, null, null).value()).isEqualTo(Json.writeBytes(map)).isNotEqualTo(first);
    }
}

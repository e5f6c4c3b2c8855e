package io.raglog.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.assemble.AssemblyFixtures;
import io.raglog.calls.ClassifiedCall;
import io.raglog.checks.RunBuilder;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** Instants through {@link JacksonSerializer}: nanoseconds as an integer where they fit a long, the text elsewhere. */
class NanoInstantsTest {

    /** JacksonSerializer's mapper as snapshot version 4 wrote: instants as text. */
    private static final SmileMapper VERSION_4 =
            Json.configure(SmileMapper.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT));

    /** {@link #VERSION_4} with its property names in full each time, as version 7 writes them. */
    private static final SmileMapper VERSION_4_NAMES_IN_FULL = Json.configure(SmileMapper.builder()
            .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT).disable(SmileGenerator.Feature.CHECK_SHARED_NAMES));

    /** The first and last instants whose nanoseconds since the epoch fit a long. */
    private static final Instant FIRST_IN_NANOS = Instant.ofEpochSecond(0, Long.MIN_VALUE);
    private static final Instant LAST_IN_NANOS = Instant.ofEpochSecond(0, Long.MAX_VALUE);

    record Times(Instant at, List<Instant> more) {}

    private static final JacksonSerializer<Times> TIMES = new JacksonSerializer<>(Times.class);

    private static List<Instant> inNanos() {
        List<Instant> out = new ArrayList<>(List.of(Instant.EPOCH, Instant.ofEpochSecond(0, 1),
                Instant.ofEpochSecond(0, 999_999_999), Instant.ofEpochSecond(-1), Instant.ofEpochSecond(-1, 1),
                Instant.ofEpochSecond(-1, 999_999_999), Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.parse("2026-12-02T13:53:23.489221688Z"), Instant.parse("2026-12-02T13:53:23Z"),
                Instant.parse("1677-09-21T00:12:43.145224192Z"), Instant.parse("2262-04-11T23:47:16.854775807Z"),
                Instant.parse("1678-01-01T00:00:00Z"), Instant.parse("2262-01-01T00:00:00Z"), FIRST_IN_NANOS,
                LAST_IN_NANOS, FIRST_IN_NANOS.plusNanos(1), LAST_IN_NANOS.minusNanos(1)));
        Random random = new Random(27);
        for (int i = 0; i < 5_000; i++) {
            out.add(Instant.ofEpochSecond(0, random.nextLong()));
        }
        return out;
    }

    private static List<Instant> beyondNanos() {
        return List.of(FIRST_IN_NANOS.minusNanos(1), LAST_IN_NANOS.plusNanos(1),
                Instant.parse("1677-09-21T00:12:43Z"), Instant.parse("2262-04-11T23:47:17Z"),
                Instant.parse("1677-01-01T00:00:00Z"), Instant.parse("2263-01-01T00:00:00.000000001Z"),
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("-0001-12-31T23:59:59Z"), Instant.parse("+10000-01-01T00:00:00Z"), Instant.MIN,
                Instant.MAX);
    }

    @Test
    void shouldWriteEachInstantThatFitsAsItsNanosAndReadItBack() throws Exception {
        assertThat(FIRST_IN_NANOS).isEqualTo(Instant.parse("1677-09-21T00:12:43.145224192Z"));
        assertThat(LAST_IN_NANOS).isEqualTo(Instant.parse("2262-04-11T23:47:16.854775807Z"));
        for (Instant instant : inNanos()) {
            assertThat(NanoInstants.fits(instant)).as(instant.toString()).isTrue();
            byte[] written = write(new Times(instant, List.of()));
            ObjectNode tree = VERSION_4.readValue(document(written), ObjectNode.class);
            assertThat(tree.get("at").isIntegralNumber()).as(instant.toString()).isTrue();
            long nanos = tree.get("at").longValue();
            assertThat(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                    Math.floorMod(nanos, 1_000_000_000L))).isEqualTo(instant);
            assertThat(read(written).at()).as(instant.toString()).isEqualTo(instant);
        }
    }

    @Test
    void shouldWriteTheInstantsBeyondALongOfNanosAsTheTextVersion4Wrote() throws Exception {
        for (Instant instant : beyondNanos()) {
            assertThat(NanoInstants.fits(instant)).as(instant.toString()).isFalse();
            Times beyond = new Times(instant, List.of(instant));
            byte[] written = write(beyond);
            assertThat(document(written)).as(instant.toString()).isEqualTo(VERSION_4_NAMES_IN_FULL.writeValueAsBytes(beyond));
            assertThat(read(written)).as(instant.toString()).isEqualTo(beyond);
            Times mixed = new Times(instant, List.of(Instant.EPOCH, instant, LAST_IN_NANOS));
            assertThat(read(write(mixed))).as(instant.toString()).isEqualTo(mixed);
        }
    }

    @Test
    void shouldReadTheTextThatVersion4WroteToTheSameInstant() throws Exception {
        List<Instant> all = new ArrayList<>(inNanos());
        all.addAll(beyondNanos());
        for (Instant instant : all) {
            Times times = new Times(instant, List.of(instant, Instant.EPOCH));
            byte[] before = VERSION_4.writeValueAsBytes(times);
            assertThat(new String(before, StandardCharsets.ISO_8859_1)).contains(instant.toString());
            assertThat(read(JacksonSerializerTest.framed(before))).as(instant.toString()).isEqualTo(times);
        }
    }

    @Test
    void shouldReadCallsAndRunsVersion4WroteToTheSameRecords() throws Exception {
        JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            for (ClassifiedCall record : List.of(call, call.forAssembly())) {
                byte[] before = JacksonSerializerTest.framed(VERSION_4.writeValueAsBytes(record));
                ClassifiedCall back = calls.deserialize(new DataInputDeserializer(before));
                assertThat(back.event()).isEqualTo(record.event());
                assertThat(Json.write(back)).isEqualTo(Json.write(record));
                assertThat(Json.write(roundTrip(calls, back))).isEqualTo(Json.write(record));
            }
        }
        JacksonSerializer<Run> runs = new JacksonSerializer<>(Run.class);
        Run run = RunBuilder.healthy().build();
        Run back = runs.deserialize(new DataInputDeserializer(JacksonSerializerTest.framed(VERSION_4.writer()
                .withAttribute(SharedPassageTexts.ATTRIBUTE, new SharedPassageTexts()).writeValueAsBytes(run))));
        assertThat(back.startedAt()).isEqualTo(run.startedAt());
        assertThat(back.endedAt()).isEqualTo(run.endedAt());
        assertThat(Json.write(back)).isEqualTo(Json.write(run));
        assertThat(Json.write(roundTrip(runs, run))).isEqualTo(Json.write(run));
    }

    @Test
    void shouldWriteRecordsInstantsAsIntegersAndShorter() throws Exception {
        JacksonSerializer<DeadLetter> letters = new JacksonSerializer<>(DeadLetter.class);
        Instant at = Instant.parse("2026-12-02T13:53:23.489221688Z");
        DeadLetter letter = new DeadLetter("dlq.v1", "raglog.calls", 3, 42, "late", at, "{}", null);
        DataOutputSerializer out = new DataOutputSerializer(256);
        letters.serialize(letter, out);
        byte[] before = VERSION_4.writeValueAsBytes(letter);
        assertThat(out.length() - 4).isLessThan(before.length - 15);
        assertThat(occurrences(out.getCopyOfBuffer(), at.toString())).isZero();
        assertThat(letters.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()))).isEqualTo(letter);
        // the contracts' JSON keeps its text
        assertThat(Json.write(letter)).contains("\"received_at\":\"2026-12-02T13:53:23.489221688Z\"");
    }

    /** jsr310 reads a number as seconds or milliseconds; here an integer is only ever nanoseconds. */
    @Test
    void shouldReadAnIntegerOnlyAsNanosAndRefuseOtherNumbers() throws Exception {
        ObjectNode document = Json.MAPPER.createObjectNode().put("at", 1_700_000_000L);
        assertThat(read(JacksonSerializerTest.framed(VERSION_4.writeValueAsBytes(document))).at())
                .isEqualTo(Instant.ofEpochSecond(1, 700_000_000));
        document.put("at", 1_700_000_000.5);
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(VERSION_4.writeValueAsBytes(document)))).isInstanceOf(IOException.class);
        document.put("at", new java.math.BigInteger("9223372036854775808"));
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(VERSION_4.writeValueAsBytes(document)))).isInstanceOf(IOException.class);
        document.putNull("at");
        assertThat(read(JacksonSerializerTest.framed(VERSION_4.writeValueAsBytes(document))).at()).isNull();
    }

    /** The Smile mapper other code shares the configuration of reads and writes text as before. */
    @Test
    void shouldLeaveOtherMappersInstantsAsText() throws Exception {
        Times times = new Times(Instant.parse("2026-12-02T13:53:23.489221688Z"), List.of());
        assertThat(Json.write(times)).isEqualTo("{\"at\":\"2026-12-02T13:53:23.489221688Z\",\"more\":[]}");
        ObjectNode tree = VERSION_4.readValue(VERSION_4.writeValueAsBytes(times), ObjectNode.class);
        assertThat(tree.get("at").textValue()).isEqualTo("2026-12-02T13:53:23.489221688Z");
    }

    private static byte[] write(Times times) throws IOException {
        return JacksonSerializerTest.written(TIMES, times);
    }

    private static Times read(byte[] framed) throws IOException {
        return JacksonSerializerTest.read(TIMES, framed);
    }

    private static <T> T roundTrip(JacksonSerializer<T> serializer, T record) throws IOException {
        return JacksonSerializerTest.read(serializer, JacksonSerializerTest.written(serializer, record));
    }

    private static byte[] document(byte[] framed) {
        return Arrays.copyOfRange(framed, 4, framed.length);
    }

    private static int occurrences(byte[] haystack, String needle) {
        return JacksonSerializerTest.occurrences(haystack, needle.getBytes(StandardCharsets.UTF_8));
    }
}

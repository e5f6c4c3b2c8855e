package io.raglog.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.assemble.AssemblyFixtures;
import io.raglog.calls.ClassifiedCall;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.calls.EmbedDetail;
import io.raglog.checks.RunBuilder;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.ReusedBytes;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class JacksonSerializerTest {

    @Test
    void shouldRoundTripEveryKindOfClassifiedCallThroughFlinkSerialization() throws Exception {
        TypeSerializer<ClassifiedCall> serializer =
                JacksonTypeInfo.of(ClassifiedCall.class).createSerializer(new SerializerConfigImpl());
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            serializer.serialize(call, out);
            ClassifiedCall back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back.event()).isEqualTo(call.event());
            assertThat(back.stage()).isEqualTo(call.stage());
            if (call.detail() instanceof EmbedDetail embed) {
                // records compare arrays by identity; compare the vectors by value
                assertThat(((EmbedDetail) back.detail()).vectors()).usingRecursiveFieldByFieldElementComparator()
                        .containsExactlyElementsOf(embed.vectors());
            } else {
                assertThat(back.detail()).usingRecursiveComparison().isEqualTo(call.detail());
            }
        }
    }

    @Test
    void shouldWriteBinaryAndStillReadTheTextJsonThatEarlierStateHolds() throws Exception {
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            DataOutputSerializer binary = new DataOutputSerializer(256);
            serializer.serialize(call, binary);
            byte[] written = binary.getCopyOfBuffer();
            assertThat(JacksonSerializer.isSmile(java.util.Arrays.copyOfRange(written, 4, written.length))).isTrue();

            // what snapshot version 1 wrote: the length, then the contract's JSON text
            byte[] json = Json.MAPPER.writeValueAsBytes(call);
            DataOutputSerializer text = new DataOutputSerializer(256);
            text.writeInt(json.length);
            text.write(json);
            ClassifiedCall fromText = serializer.deserialize(new DataInputDeserializer(text.getCopyOfBuffer()));
            ClassifiedCall fromBinary = serializer.deserialize(new DataInputDeserializer(written));
            // the same record either way: compared as the contract's JSON, which covers vectors by value
            assertThat(Json.MAPPER.writeValueAsString(fromBinary)).isEqualTo(Json.MAPPER.writeValueAsString(call));
            assertThat(Json.MAPPER.writeValueAsString(fromText)).isEqualTo(Json.MAPPER.writeValueAsString(call));
            assertThat(fromBinary.event()).isEqualTo(call.event());
        }
    }

    /** A hinted call's bodies cross as one binary value ({@code HeldBodies}): raw, not spread over 7-bit bytes. */
    @Test
    void shouldWriteAHeldCallsBodiesAsRawBinaryAndReadSevenBitOnesToo() throws Exception {
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);
        SmileMapper sevenBit = Json.configure(SmileMapper.builder());
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            ClassifiedCall held = call.forAssembly();
            assertThat(held.bodies()).as("a hinted call's bodies").isNotNull();
            DataOutputSerializer out = new DataOutputSerializer(256);
            serializer.serialize(held, out);
            byte[] encoded = sevenBit.writeValueAsBytes(held);
            // the same document but for its binary's form: names in full, as the serializer writes them
            SmileMapper sevenBitNamesInFull =
                    Json.configure(SmileMapper.builder().disable(SmileGenerator.Feature.CHECK_SHARED_NAMES));
            assertThat(out.length() - 4).isLessThan(sevenBitNamesInFull.writeValueAsBytes(held).length);

            for (byte[] written : List.of(out.getCopyOfBuffer(), framed(encoded))) {
                ClassifiedCall back = serializer.deserialize(new DataInputDeserializer(written));
                assertThat(back.bodies()).isEqualTo(held.bodies());
                assertThat(back.event()).isEqualTo(held.event());
                assertThat(back.wholeEvent()).isEqualTo(call.event());
                assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(held));
            }
        }
    }

    @Test
    void shouldRestoreTheSerializerFromItsSnapshot() throws Exception {
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.snapshotConfiguration().writeSnapshot(out);
        JacksonSerializer.Snapshot<ClassifiedCall> restored = new JacksonSerializer.Snapshot<>();
        restored.readSnapshot(1, new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isEqualTo(serializer);
        assertThat(List.of(restored.resolveSchemaCompatibility(serializer.snapshotConfiguration()).isCompatibleAsIs()))
                .containsExactly(true);
    }

    /** State written by every snapshot version so far restores as is: the current one reads the bytes of all before. */
    @Test
    void shouldRestoreStateOfEveryEarlierSnapshotVersionAsIs() throws Exception {
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);
        assertThat(serializer.snapshotConfiguration().getCurrentVersion()).isEqualTo(7);
        for (int version = 1; version <= 7; version++) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            serializer.snapshotConfiguration().writeSnapshot(out);
            JacksonSerializer.Snapshot<ClassifiedCall> old = new JacksonSerializer.Snapshot<>();
            old.readSnapshot(version, new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
            assertThat(serializer.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAsIs())
                    .as("version %d", version).isTrue();
        }
    }

    @Test
    void shouldWriteTheSameBytesAsTheMapperThroughItsReusedBuffer() throws Exception {
        JacksonSerializer<ClassifiedCall> serializer = new JacksonSerializer<>(ClassifiedCall.class);
        SmileMapper smile = Json.configure(SmileMapper.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
                .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
                .addMixIn(java.time.Instant.class, NanoInstants.InstantMixIn.class).addModule(RawFloats.module()));
        // twice over, so the second pass writes into and reads from buffers the first one left behind
        for (int pass = 0; pass < 2; pass++) {
            for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
                DataOutputSerializer out = new DataOutputSerializer(256);
                serializer.serialize(call, out);
                byte[] expected = smile.writeValueAsBytes(call);
                DataOutputSerializer framed = new DataOutputSerializer(256);
                framed.writeInt(expected.length);
                framed.write(expected);
                assertThat(out.getCopyOfBuffer()).isEqualTo(framed.getCopyOfBuffer());
                ClassifiedCall back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
                assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(call));
            }
        }
    }

    /**
     * State written up to snapshot version 4 carries instants as Json's fast form wrote them, which must be
     * jsr310's bytes; the serializer reads them to the same records (it writes nanoseconds now, {@link NanoInstants}).
     */
    @Test
    void shouldReadInstantsAsJsr310WroteThemUpToVersion4() throws Exception {
        SmileMapper version4 =
                Json.configure(SmileMapper.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT));
        SmileMapper jsr310 = jsr310(SmileMapper.builder());
        // a run repeats its passages' texts: this reference writes them once too, as the serializer does
        SmileMapper jsr310Shared = jsr310(SmileMapper.builder()
                .addMixIn(Passage.class, SharedPassageTexts.PassageMixIn.class));
        JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            byte[] written = version4.writeValueAsBytes(call);
            assertThat(written).isEqualTo(jsr310.writeValueAsBytes(call));
            ClassifiedCall back = calls.deserialize(new DataInputDeserializer(framed(written)));
            assertThat(back.event()).isEqualTo(jsr310.readValue(written, ClassifiedCall.class).event())
                    .isEqualTo(call.event());
        }
        JacksonSerializer<io.raglog.schemas.Run> runs = new JacksonSerializer<>(io.raglog.schemas.Run.class);
        io.raglog.schemas.Run run = io.raglog.checks.RunBuilder.healthy().build();
        byte[] written = version4.copy().addMixIn(Passage.class, SharedPassageTexts.PassageMixIn.class).writer()
                .withAttribute(SharedPassageTexts.ATTRIBUTE, new SharedPassageTexts()).writeValueAsBytes(run);
        assertThat(written).isEqualTo(jsr310Shared.writer()
                .withAttribute(SharedPassageTexts.ATTRIBUTE, new SharedPassageTexts()).writeValueAsBytes(run));
        io.raglog.schemas.Run back = runs.deserialize(new DataInputDeserializer(framed(written)));
        assertThat(Json.MAPPER.writeValueAsString(back))
                .isEqualTo(Json.MAPPER.writeValueAsString(jsr310Shared.readerFor(io.raglog.schemas.Run.class)
                        .withAttribute(SharedPassageTexts.ATTRIBUTE, new SharedPassageTexts()).readValue(written)))
                .isEqualTo(Json.MAPPER.writeValueAsString(run));
    }

    /**
     * State written up to snapshot version 6 names each property once a record and refers back to it after; the
     * serializer writes every name in full now and reads those documents to the same records.
     */
    @Test
    void shouldReadTheSharedPropertyNamesThatVersion6Wrote() throws Exception {
        SmileMapper version6 = Json.configure(SmileMapper.builder()
                .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
                .addMixIn(Passage.class, SharedPassageTexts.PassageMixIn.class)
                .addMixIn(io.raglog.schemas.RunFeatures.class, PackedFeatures.RunFeaturesMixIn.class)
                .addMixIn(java.time.Instant.class, NanoInstants.InstantMixIn.class)
                .addModule(RawFloats.module()));
        JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        for (ClassifiedCall call : AssemblyFixtures.oneOfEachStage()) {
            byte[] written = version6Bytes(version6, call);
            assertThat(sharesNames(written)).isTrue();
            assertThat(sharesNames(Arrays.copyOfRange(written(calls, call), 4, written(calls, call).length)))
                    .as("what is written now").isFalse();
            ClassifiedCall back = read(calls, framed(written));
            assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(call));
            assertThat(Json.MAPPER.writeValueAsString(back.forAssembly()))
                    .isEqualTo(Json.MAPPER.writeValueAsString(call.forAssembly()));
            ClassifiedCall held = read(calls, framed(version6Bytes(version6, call.forAssembly())));
            assertThat(Json.MAPPER.writeValueAsString(held.wholeEvent()))
                    .isEqualTo(Json.MAPPER.writeValueAsString(call.wholeEvent()));
        }
        JacksonSerializer<Run> runs = new JacksonSerializer<>(Run.class);
        for (Run run : List.of(runHandingOnItsPassages(), RunBuilder.healthy().build())) {
            byte[] written = version6Bytes(version6, run);
            assertThat(sharesNames(written)).isTrue();
            Run back = read(runs, framed(written));
            assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(run));
            assertThat(written(runs, back)).isEqualTo(written(runs, run));
        }
    }

    /** A record as version 6 wrote it, its passage texts shared within it. */
    private static byte[] version6Bytes(SmileMapper version6, Object record) throws IOException {
        return version6.writer().withAttribute(SharedPassageTexts.ATTRIBUTE, new SharedPassageTexts())
                .writeValueAsBytes(record);
    }

    /** Whether a Smile document's header says it refers back to property names (the fourth byte's lowest bit). */
    private static boolean sharesNames(byte[] document) {
        assertThat(JacksonSerializer.isSmile(document)).isTrue();
        return (document[3] & com.fasterxml.jackson.dataformat.smile.SmileConstants.HEADER_BIT_HAS_SHARED_NAMES) != 0;
    }

    /** As jackson-datatype-jsr310 writes and reads instants, with the contracts' naming. */
    private static SmileMapper jsr310(SmileMapper.Builder builder) {
        return builder.disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
                .propertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
                .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(com.fasterxml.jackson.databind.DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .build();
    }

    /** A run as it crosses between tasks: retrieved, handed to the reranker, kept, put in the prompt. */
    private static Run runHandingOnItsPassages() {
        return RunBuilder.healthy().retrieved(RunBuilder.CASH_2023, RunBuilder.REVENUE_2022, RunBuilder.WEATHER)
                .reranked(RunBuilder.CASH_2023, RunBuilder.REVENUE_2022)
                .context(RunBuilder.CASH_2023, RunBuilder.REVENUE_2022).build();
    }

    /** What {@code serializer} writes of {@code record}: its framed document. */
    static <T> byte[] written(JacksonSerializer<T> serializer, T record) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(record, out);
        return out.getCopyOfBuffer();
    }

    /** The record {@code serializer} reads from a framed document. */
    static <T> T read(JacksonSerializer<T> serializer, byte[] framed) throws IOException {
        return serializer.deserialize(new DataInputDeserializer(framed));
    }

    /** A document as {@link JacksonSerializer} frames it: its length, then its bytes. */
    static byte[] framed(byte[] document) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(document.length + 4);
        out.writeInt(document.length);
        out.write(document);
        return out.getCopyOfBuffer();
    }

    @Test
    void shouldWriteEachPassageTextOnceARecordAndReadItBackAsOneString() throws Exception {
        JacksonSerializer<Run> runs = new JacksonSerializer<>(Run.class);
        Run run = runHandingOnItsPassages();
        byte[] plain = Json.configure(SmileMapper.builder()).writeValueAsBytes(run);
        DataOutputSerializer out = new DataOutputSerializer(256);
        runs.serialize(run, out);
        byte[] shared = out.getCopyOfBuffer();

        byte[] text = RunBuilder.CASH_2023.text().getBytes(StandardCharsets.UTF_8);
        assertThat(occurrences(plain, text)).as("the plain document").isGreaterThanOrEqualTo(3);
        assertThat(occurrences(shared, text)).as("the hand-over's").isEqualTo(1);
        assertThat(shared.length).isLessThan(plain.length - 2 * text.length);

        Run back = runs.deserialize(new DataInputDeserializer(shared));
        assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(run));
        assertThat(back.stages().rerank().output().get(0).text()).as("one string for one text")
                .isSameAs(back.stages().retrieve().passages().get(0).text());
        // the table is per record: the next record writes its texts in full again
        DataOutputSerializer again = new DataOutputSerializer(256);
        runs.serialize(run, again);
        assertThat(again.getCopyOfBuffer()).isEqualTo(shared);
    }

    @Test
    void shouldReadRunsWrittenBeforeTextsWereShared() throws Exception {
        Run run = runHandingOnItsPassages();
        byte[] before = framed(Json.configure(SmileMapper.builder()).writeValueAsBytes(run));
        Run back = new JacksonSerializer<>(Run.class).deserialize(new DataInputDeserializer(before));
        assertThat(Json.MAPPER.writeValueAsString(back)).isEqualTo(Json.MAPPER.writeValueAsString(run));
    }

    @Test
    void shouldRefuseATextNumberThatNoEarlierTextHas() throws Exception {
        ObjectNode passage = Json.MAPPER.createObjectNode().put("id", "p1").put("text", 3);
        byte[] document = Json.configure(SmileMapper.builder()).writeValueAsBytes(passage);
        assertThatThrownBy(() -> new JacksonSerializer<>(Passage.class)
                .deserialize(new DataInputDeserializer(framed(document))))
                .isInstanceOf(IOException.class).hasMessageContaining("passage text #3");
    }

    /** How many times {@code needle} occurs in {@code haystack}, overlaps counted. */
    static int occurrences(byte[] haystack, byte[] needle) {
        int count = 0;
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                count++;
            }
        }
        return count;
    }

    @Test
    void shouldLetGoOfABufferAnUnusuallyLargeRecordGrew() throws Exception {
        ReusedBytes buffer = new ReusedBytes();
        byte[] large = new byte[ReusedBytes.KEPT + 1];
        buffer.write(large, 0, large.length);
        assertThat(buffer.size()).isEqualTo(large.length);
        buffer.release();
        assertThat(buffer.size()).isZero();
        assertThat(buffer.bytes().length).isLessThanOrEqualTo(ReusedBytes.KEPT);
    }
}

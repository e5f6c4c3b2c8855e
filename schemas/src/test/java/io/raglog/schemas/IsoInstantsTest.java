package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The instants {@link Json} writes and reads must be exactly jackson-datatype-jsr310's. */
class IsoInstantsTest {

    /** Json's configuration as it was before {@link IsoInstants}: jsr310 alone. */
    private static final ObjectMapper JSR310 = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .serializationInclusion(JsonInclude.Include.ALWAYS)
            .build();

    record Times(Instant startedAt, Instant endedAt, List<Instant> more) {}

    private static List<Instant> instants() {
        List<Instant> out = new ArrayList<>(List.of(Instant.EPOCH, Instant.parse("2026-12-02T13:53:23.489221688Z"),
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("1969-12-31T23:59:59.999Z"), Instant.parse("2024-02-29T00:00:00.000001Z"),
                Instant.parse("2023-03-01T12:00:00.100Z"), Instant.parse("2023-03-01T12:00:00.000000001Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59Z"), Instant.MIN,
                Instant.MAX));
        Random random = new Random(27);
        for (int i = 0; i < 20_000; i++) {
            long seconds = switch (i % 3) {
                case 0 -> 1_600_000_000L + random.nextInt(400_000_000);
                case 1 -> random.nextLong(-62_167_219_200L - 86_400, 253_402_300_799L + 86_400);
                default -> random.nextLong(-5_000_000_000_000L, 5_000_000_000_000L);
            };
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            out.add(Instant.ofEpochSecond(seconds, nano));
        }
        return out;
    }

    @Test
    void formatsAsInstantToStringWithinFourDigitYears() {
        char[] text = new char[30];
        for (Instant instant : instants()) {
            int length = IsoInstants.format(instant, text);
            String expected = instant.toString();
            if (expected.startsWith("+") || expected.startsWith("-")) {
                assertThat(length).as(expected).isEqualTo(-1);
            } else {
                assertThat(new String(text, 0, length)).isEqualTo(expected);
            }
        }
    }

    @Test
    void parsesWhatInstantParseDoesOrLeavesItToIt() {
        for (Instant instant : instants()) {
            String text = instant.toString();
            Instant fast = IsoInstants.parse(text);
            if (text.startsWith("+") || text.startsWith("-")) {
                assertThat(fast).as(text).isNull();
            } else {
                assertThat(fast).as(text).isEqualTo(instant);
            }
        }
        List<String> others = List.of("2026-12-02T13:53:23.4Z", "2026-12-02T13:53:23.48922Z",
                "2026-12-02T13:53:23.4892216Z", "2026-12-02T13:53:23.000Z", "2026-12-02T13:53:23.Z",
                "2026-12-02T13:53:23+01:00", "2026-12-02T13:53:23.5+00:00", "2026-12-02 13:53:23Z",
                "2026-12-02t13:53:23z", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
                "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-12-00T00:00:00Z", "2026-12-02T24:00:00Z",
                "2026-12-02T23:60:00Z", "2016-12-31T23:59:60Z", " 2026-12-02T13:53:23Z", "2026-12-02T13:53:23Z ",
                "2026-12-02T13:53:23.1234567890Z", "2026-1a-02T13:53:23Z", "20261202T135323Z", "2026-12-02",
                "2026-12-02T13:53Z", "+2026-12-02T13:53:23Z", "2026-12-02T13:53:23.-12Z", "");
        for (String text : others) {
            Instant fast = IsoInstants.parse(text);
            Instant expected;
            try {
                expected = Instant.parse(text);
            } catch (DateTimeParseException e) {
                expected = null;
            }
            if (fast != null) {
                assertThat(fast).as(text).isEqualTo(expected);
            }
        }
        assertThat(IsoInstants.parse("2026-12-02T13:53:23.4Z")).isEqualTo(Instant.parse("2026-12-02T13:53:23.4Z"));
        assertThat(IsoInstants.parse("2016-12-31T23:59:60Z")).isNull(); // a leap second: Instant.parse's own rule
        assertThat(IsoInstants.parse("2026-12-02T13:53:23+01:00")).isNull();
    }

    @Test
    void writesAndReadsWhatJsr310Does() throws Exception {
        List<Instant> all = instants();
        for (int i = 0; i + 1 < all.size(); i += 2) {
            Times times = new Times(all.get(i), i % 10 == 0 ? null : all.get(i + 1), List.of(all.get(i + 1)));
            String json = Json.MAPPER.writeValueAsString(times);
            assertThat(json).isEqualTo(JSR310.writeValueAsString(times));
            assertThat(Json.MAPPER.readValue(json, Times.class)).isEqualTo(JSR310.readValue(json, Times.class))
                    .isEqualTo(times);
            assertThat(Json.MAPPER.convertValue(times, Times.class)).isEqualTo(times); // through a TokenBuffer
        }
        for (String value : List.of("\"2026-12-02T13:53:23+01:00\"", "\"2026-12-02T13:53:23.5+00:00\"",
                "\"+10000-01-01T00:00:00Z\"", "1700000000", "1700000000.123456789", "\"1700000000\"", "null",
                "\"2026-12-02T13:53:23.4Z\"", "\" 2026-12-02T13:53:23Z \"", "\"2016-12-31T23:59:60Z\"")) {
            String json = "{\"started_at\":" + value + "}";
            assertThat(Json.MAPPER.readValue(json, Times.class)).as(json)
                    .isEqualTo(JSR310.readValue(json, Times.class));
        }
        for (String value : List.of("\"2026-02-30T00:00:00Z\"", "\"yesterday\"", "\"2026-12-02T13:53:23\"")) {
            String json = "{\"started_at\":" + value + "}";
            assertThatThrownBy(() -> JSR310.readValue(json, Times.class)).isInstanceOf(JsonMappingException.class);
            assertThatThrownBy(() -> Json.MAPPER.readValue(json, Times.class))
                    .isInstanceOf(JsonMappingException.class);
        }
    }

    @Test
    void jsonPutsTheFastFormInFrontOfJsr310() throws Exception {
        String writer = IsoInstants.class.getName() + "$Writer";
        assertThat(Json.MAPPER.getSerializerProviderInstance().findValueSerializer(Instant.class).getClass()
                .getName()).isEqualTo(writer);
        // a record's properties too, which jsr310 gives serializers of their own
        var properties = Json.MAPPER.getSerializerProviderInstance().findValueSerializer(Times.class).properties();
        List<String> serializers = new ArrayList<>();
        while (properties.hasNext()) {
            if (properties.next() instanceof com.fasterxml.jackson.databind.ser.BeanPropertyWriter property
                    && property.getType().getRawClass() == Instant.class) {
                serializers.add(property.getSerializer().getClass().getName());
            }
        }
        assertThat(serializers).containsExactly(writer, writer);
    }

    record Annotated(@com.fasterxml.jackson.annotation.JsonFormat(
            shape = com.fasterxml.jackson.annotation.JsonFormat.Shape.NUMBER_INT) Instant at,
            @com.fasterxml.jackson.annotation.JsonFormat(pattern = "yyyy-MM-dd", timezone = "UTC") Instant day,
            Instant plain) {}

    @Test
    void aPropertyFormattedOtherwiseIsLeftToJsr310() throws Exception {
        Instant instant = Instant.parse("2026-12-02T13:53:23.489221688Z");
        Annotated annotated = new Annotated(instant, instant, instant);
        String json = Json.MAPPER.writeValueAsString(annotated);
        assertThat(json).isEqualTo(JSR310.writeValueAsString(annotated)).contains("\"day\":\"2026-12-02\"");
        java.util.TimeZone lisbon = java.util.TimeZone.getTimeZone("Europe/Lisbon");
        assertThat(Json.MAPPER.writer().with(lisbon).writeValueAsString(annotated))
                .isEqualTo(JSR310.writer().with(lisbon).writeValueAsString(annotated));
    }

    @Test
    void aWriterAskingForTimestampsStillGetsThem() throws Exception {
        Times times = new Times(Instant.parse("2026-12-02T13:53:23.489Z"), null, List.of());
        assertThat(Json.MAPPER.writer().with(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).writeValueAsString(times))
                .isEqualTo(JSR310.writer().with(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .writeValueAsString(times));
    }
}

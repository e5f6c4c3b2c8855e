package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.jsonFormatVisitors.JsonFormatVisitorWrapper;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Year;

/**
 * RFC 3339 instants in the one form {@link Instant#toString()} writes ({@code 2026-12-02T13:53:23.489221688Z}: a
 * four-digit year, UTC, the fraction in groups of three digits), written and read without {@code DateTimeFormatter}.
 * Every record between Flink operators carries several instants, and jackson-datatype-jsr310 formats each with
 * {@code ISO_INSTANT} and parses it with a formatter built anew per value (a parse context, a field map, a
 * LocalDateTime, a BigDecimal fraction, ...): a twentieth of what raglog's own threads allocated per run (JFR, issue
 * #27). Anything else (a year beyond 9999, an offset, a leap second, a malformed text) is left to the formatter as
 * before, so the text written and the instant read are the same.
 */
public final class IsoInstants {

    /** {@code 0000-01-01T00:00:00Z} and {@code 9999-12-31T23:59:59.999999999Z}: where the year has four digits. */
    private static final long MIN_SECOND = -62_167_219_200L;
    private static final long MAX_SECOND = 253_402_300_799L;
    /** {@code yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ} */
    private static final int MAX_LENGTH = 30;

    private IsoInstants() {}

    /** {@code instant.toString()} into {@code out} (30 chars or more), its length returned; -1 beyond years 0-9999. */
    static int format(Instant instant, char[] out) {
        long seconds = instant.getEpochSecond();
        if (seconds < MIN_SECOND || seconds > MAX_SECOND) {
            return -1;
        }
        long day = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        LocalDate date = LocalDate.ofEpochDay(day);
        digits(out, 0, date.getYear(), 4);
        out[4] = '-';
        digits(out, 5, date.getMonthValue(), 2);
        out[7] = '-';
        digits(out, 8, date.getDayOfMonth(), 2);
        out[10] = 'T';
        digits(out, 11, secondOfDay / 3600, 2);
        out[13] = ':';
        digits(out, 14, secondOfDay / 60 % 60, 2);
        out[16] = ':';
        digits(out, 17, secondOfDay % 60, 2);
        int at = 19;
        int nano = instant.getNano();
        if (nano > 0) {
            // as ISO_INSTANT: as many digits as needed, in groups of three
            out[at++] = '.';
            if (nano % 1_000_000 == 0) {
                digits(out, at, nano / 1_000_000, 3);
                at += 3;
            } else if (nano % 1_000 == 0) {
                digits(out, at, nano / 1_000, 6);
                at += 6;
            } else {
                digits(out, at, nano, 9);
                at += 9;
            }
        }
        out[at++] = 'Z';
        return at;
    }

    private static void digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * The instant {@code Instant.parse} reads from {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, a valid date and time; null
     * for any other text, which the caller leaves to {@code Instant.parse} or Jackson's deserializer.
     */
    public static Instant parse(CharSequence text) {
        int n = text.length();
        if (n < 20 || n > MAX_LENGTH) {
            return null;
        }
        char[] chars = new char[n];
        for (int i = 0; i < n; i++) {
            chars[i] = text.charAt(i);
        }
        return parse(chars, 0, n);
    }

    static Instant parse(char[] c, int off, int n) {
        if (n < 20 || n > MAX_LENGTH || n == 21 || c[off + n - 1] != 'Z' || c[off + 4] != '-' || c[off + 7] != '-'
                || c[off + 10] != 'T' || c[off + 13] != ':' || c[off + 16] != ':') {
            return null;
        }
        int year = number(c, off, 4);
        int month = number(c, off + 5, 2);
        int day = number(c, off + 8, 2);
        int hour = number(c, off + 11, 2);
        int minute = number(c, off + 14, 2);
        int second = number(c, off + 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > Month.of(month).length(Year.isLeap(year))
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int nano = 0;
        if (n > 20) {
            if (c[off + 19] != '.') {
                return null;
            }
            int fraction = n - 21;
            nano = number(c, off + 20, fraction);
            if (nano < 0) {
                return null;
            }
            for (int i = fraction; i < 9; i++) {
                nano *= 10;
            }
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600 + minute * 60 + second, nano);
    }

    /** The decimal number of {@code width} ASCII digits at {@code at}; -1 if any is not a digit. */
    private static int number(char[] c, int at, int width) {
        int value = 0;
        for (int i = at; i < at + width; i++) {
            char d = c[i];
            if (d < '0' || d > '9') {
                return -1;
            }
            value = value * 10 + (d - '0');
        }
        return value;
    }

    /**
     * Puts the fast form in front of whatever serializer and deserializer jackson-datatype-jsr310 gives
     * {@link Instant}; a property whose format is configured otherwise (an annotation, a shape) keeps jsr310's own.
     */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("raglog-iso-instants");
        module.setSerializerModifier(new BeanSerializerModifier() {
            @Override
            @SuppressWarnings("unchecked")
            public JsonSerializer<?> modifySerializer(SerializationConfig config, BeanDescription description,
                    JsonSerializer<?> serializer) {
                return description.getBeanClass() == Instant.class
                        ? new Writer((JsonSerializer<Instant>) serializer) : serializer;
            }
        });
        module.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                    JsonDeserializer<?> deserializer) {
                return description.getBeanClass() == Instant.class ? new Reader(deserializer) : deserializer;
            }
        });
        return module;
    }

    private static final class Writer extends StdSerializer<Instant> implements ContextualSerializer {

        private final JsonSerializer<Instant> jsr310;

        Writer(JsonSerializer<Instant> jsr310) {
            super(Instant.class);
            this.jsr310 = jsr310;
        }

        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializerProvider provider)
                throws IOException {
            // jsr310 then writes Instant.toString(); a time zone set on the mapper or writer is left to it
            if (!provider.isEnabled(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    && !provider.getConfig().hasExplicitTimeZone()) {
                char[] text = new char[MAX_LENGTH];
                int length = format(value, text);
                if (length > 0) {
                    generator.writeString(text, 0, length);
                    return;
                }
            }
            jsr310.serialize(value, generator, provider);
        }

        @Override
        public void serializeWithType(Instant value, JsonGenerator generator, SerializerProvider provider,
                TypeSerializer types) throws IOException {
            jsr310.serializeWithType(value, generator, provider, types);
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Instant value) {
            return jsr310.isEmpty(provider, value);
        }

        @Override
        public void acceptJsonFormatVisitor(JsonFormatVisitorWrapper visitor, JavaType type)
                throws JsonMappingException {
            jsr310.acceptJsonFormatVisitor(visitor, type);
        }

        /**
         * jsr310 makes each property its own serializer (an empty format is still a shape, ANY, unlike its root
         * serializer's none); the fast form stays in front of it unless the property's format asks for something
         * else.
         */
        @Override
        @SuppressWarnings("unchecked")
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
                throws JsonMappingException {
            JsonSerializer<?> contextual = jsr310 instanceof ContextualSerializer c
                    ? c.createContextual(provider, property) : jsr310;
            JsonFormat.Value format = findFormatOverrides(provider, property, Instant.class);
            boolean plain = format == null || (format.getShape() == JsonFormat.Shape.ANY && !format.hasPattern()
                    && !format.hasLocale() && !format.hasTimeZone() && !format.hasLenient()
                    && format.getFeatures().equals(JsonFormat.Features.empty()));
            return plain ? new Writer((JsonSerializer<Instant>) contextual) : contextual;
        }
    }

    private static final class Reader extends DelegatingDeserializer {

        Reader(JsonDeserializer<?> jsr310) {
            super(jsr310);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> jsr310) {
            return new Reader(jsr310);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.hasToken(JsonToken.VALUE_STRING)) {
                Instant fast = parse(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
                if (fast != null) {
                    return fast;
                }
            }
            return _delegatee.deserialize(parser, context);
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext context, BeanProperty property)
                throws JsonMappingException {
            JsonDeserializer<?> contextual = _delegatee instanceof ContextualDeserializer c
                    ? c.createContextual(context, property) : _delegatee;
            return contextual == _delegatee ? this : contextual;
        }
    }
}

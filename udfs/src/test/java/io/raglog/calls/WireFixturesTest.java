package io.raglog.calls;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;


/**
 * Every recorded call under {@code wire/} goes through the built-in classifier and must come out as
 * {@code wire-expected.json} says: the adapter that read it, the stage (null for a call that is not part of a run),
 * and key fields of the detail addressed by JSON pointers into its JSON form ({@code fields}: equal,
 * {@code sizes}: array length, {@code starts}: text prefix).
 */
class WireFixturesTest {

    private static final Path WIRE = resource("/wire");

    static Stream<String> fixtures() throws IOException {
        try (Stream<Path> files = Files.walk(WIRE)) {
            return files.filter(p -> p.toString().endsWith(".json"))
                    .map(p -> WIRE.relativize(p).toString().replace('\\', '/'))
                    .sorted()
                    .collect(Collectors.toList())
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void shouldClassifyRecordedCallAsExpected(String fixture) throws IOException {
        JsonNode expected = expectations().get(fixture);
        assertThat(expected).as("wire-expected.json has an entry for %s", fixture).isNotNull();
        CallEvent call = Json.read(Files.readAllBytes(WIRE.resolve(fixture)), CallEvent.class);
        assertThat(call.schema()).isEqualTo(SchemaIds.CALL_V1);

        Classification result = BuiltInAdapters.classifier().classify(call);

        assertThat(result).as("classification of %s", fixture).isInstanceOf(Classification.Classified.class);
        ClassifiedCall classified = ((Classification.Classified) result).call();
        assertThat(classified.detail().adapter()).isEqualTo(expected.get("adapter").textValue());
        JsonNode stage = expected.get("stage");
        if (stage.isNull()) {
            assertThat(classified.stage()).isNull();
            // not part of a run: a call of no stage, or a chat call that is neither rewriter nor generator (a gate that
            // let the run through, a guardrail)
            assertThat(classified.detail()).satisfiesAnyOf(
                    d -> assertThat(d).isInstanceOf(NotARunCall.class),
                    d -> assertThat(d).isInstanceOfSatisfying(ChatDetail.class,
                            chat -> assertThat(chat.role()).isEqualTo(ChatRole.OTHER)));
        } else {
            assertThat(classified.stage()).isNotNull();
            assertThat(classified.stage().id()).isEqualTo(stage.textValue());
        }
        JsonNode detail = Json.MAPPER.valueToTree(classified.detail());
        forEach(expected.get("fields"), (pointer, value) -> assertField(fixture, detail, pointer, value));
        forEach(expected.get("sizes"), (pointer, value) ->
                assertThat(detail.at(pointer).size()).as("%s size of %s", fixture, pointer).isEqualTo(value.intValue()));
        forEach(expected.get("starts"), (pointer, value) ->
                assertThat(detail.at(pointer).asText()).as("%s %s", fixture, pointer).startsWith(value.textValue()));
    }

    @Test
    void shouldHaveAFixtureForEveryExpectation() throws IOException {
        TreeSet<String> expected = new TreeSet<>();
        expectations().fieldNames().forEachRemaining(expected::add);
        TreeSet<String> files = fixtures().collect(Collectors.toCollection(TreeSet::new));
        assertThat(files).isEqualTo(expected);
    }

    @Test
    void shouldCoverEveryBuiltInAdapterWithAFixture() throws IOException {
        TreeSet<String> covered = new TreeSet<>();
        for (JsonNode e : expectations()) {
            covered.add(e.get("adapter").textValue());
        }
        // span adapters read OTLP span-calls, which have their own trace fixtures under resources/otlp
        List<String> spanAdapters = io.raglog.calls.adapters.otlp.OtlpAdapters.all().stream().map(ApiAdapter::name)
                .toList();
        List<String> builtIn = BuiltInAdapters.all().stream().map(ApiAdapter::name)
                .filter(name -> !spanAdapters.contains(name)).collect(Collectors.toList());
        assertThat(covered).containsAll(builtIn);
    }

    private static void assertField(String fixture, JsonNode detail, String pointer, JsonNode value) {
        JsonNode actual = detail.at(pointer);
        if (value.isNull()) {
            assertThat(actual.isNull() || actual.isMissingNode()).as("%s %s is null but was %s", fixture, pointer, actual)
                    .isTrue();
        } else if (value.isNumber() && !value.isIntegralNumber()) {
            // Vectors are float32: compare at float precision.
            assertThat(actual.doubleValue()).as("%s %s", fixture, pointer).isCloseTo(value.doubleValue(), within(1e-6));
        } else {
            assertThat(actual).as("%s %s", fixture, pointer).isEqualTo(value);
        }
    }

    private interface FieldCheck {
        void check(String pointer, JsonNode value);
    }

    private static void forEach(JsonNode object, FieldCheck check) {
        if (object == null) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            check.check(f.getKey(), f.getValue());
        }
    }

    private static JsonNode expectations() throws IOException {
        try (InputStream in = WireFixturesTest.class.getResourceAsStream("/wire-expected.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    private static Path resource(String name) {
        try {
            return Paths.get(WireFixturesTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

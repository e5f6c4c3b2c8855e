package io.raglog.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;

/** {@code schemas/call.v1.json}, the contract's source of truth, from the schemas jar on the classpath. */
final class ContractSchema {

    private static final JsonSchema CALL_V1 = load("/schemas/call.v1.json");

    private ContractSchema() {}

    static Set<ValidationMessage> violationsOfCallV1(JsonNode event) {
        return CALL_V1.validate(event);
    }

    private static JsonSchema load(String resource) {
        try (InputStream in = ContractSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath");
            }
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

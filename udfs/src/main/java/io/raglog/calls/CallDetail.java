package io.raglog.calls;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What an {@link ApiAdapter} understood of one call, independent of the vendor's JSON. Run assembly reads only
 * this; it never looks at vendor bodies.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ChatDetail.class, name = "chat"),
    @JsonSubTypes.Type(value = EmbedDetail.class, name = "embed"),
    @JsonSubTypes.Type(value = RetrieveDetail.class, name = "retrieve"),
    @JsonSubTypes.Type(value = RerankDetail.class, name = "rerank"),
    @JsonSubTypes.Type(value = NotARunCall.class, name = "not_a_run_call"),
})
public sealed interface CallDetail permits ChatDetail, EmbedDetail, RetrieveDetail, RerankDetail, NotARunCall {

    /** The adapter that read it, e.g. {@code openai.chat}, {@code cohere.rerank}, {@code openinference.llm}. */
    String adapter();
}

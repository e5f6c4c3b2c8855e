package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReplyJsonTest {

    @Test
    void shouldReadAnObjectWithOrWithoutACodeFence() {
        assertThat(ReplyJson.object("{\"fault\": 12}").get("fault").asInt()).isEqualTo(12);
        assertThat(ReplyJson.object("```json\n{\"fault\": 12}\n```").get("fault").asInt()).isEqualTo(12);
        assertThat(ReplyJson.object("  ```\n{\"fault\": 12}```  ").get("fault").asInt()).isEqualTo(12);
    }

    @Test
    void shouldRefuseWhatIsNotOneObject() {
        assertThatThrownBy(() -> ReplyJson.object(" ")).isInstanceOf(BadReplyException.class)
                .hasMessage("the reply is empty");
        assertThatThrownBy(() -> ReplyJson.object("[1, 2]")).isInstanceOf(BadReplyException.class)
                .hasMessage("the reply is not a JSON object");
        assertThatThrownBy(() -> ReplyJson.object("Sure! {\"fault\": 12}")).isInstanceOf(BadReplyException.class)
                .hasMessageStartingWith("the reply is not JSON");
    }
}

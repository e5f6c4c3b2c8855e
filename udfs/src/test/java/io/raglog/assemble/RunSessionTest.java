package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.reask.AskedQuestion;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run carries the session its calls carried: what re-ask detection keys on. */
class RunSessionTest {

    private static List<ClassifiedCall> calls(TestCalls run, String sessionOnEmbed) {
        List<ClassifiedCall> out = new ArrayList<>();
        out.add(run.rewrite(0.0, 0.4));
        ClassifiedCall embed = run.embed(0.45, 0.7);
        out.add(new ClassifiedCall(embed.event().withSession(sessionOnEmbed), embed.stage(), embed.detail()));
        out.add(run.retrieve(0.7, 0.75));
        out.add(run.generate(1.1, 2.5));
        return out;
    }

    @Test
    void shouldTakeTheSessionFromTheFirstCallThatHasOne() {
        TestCalls t = TestCalls.run("support-bot", "hint-1", "alpha", 1);
        List<ClassifiedCall> calls = calls(t, "s-42");
        Run run = RunBuilder.build("support-bot", "hint-1", calls, calls.get(calls.size() - 1), null);

        assertThat(run.session()).isEqualTo("s-42");
        AskedQuestion asked = AskedQuestion.of(run);
        assertThat(asked.session()).isEqualTo("s-42");
        assertThat(asked.question()).isEqualTo(run.question());
        assertThat(asked.key()).isNotEqualTo(AskedQuestion.of(run.withSession(null)).key());
    }

    @Test
    void shouldLeaveTheSessionOutWhenNoCallHasOne() {
        TestCalls t = TestCalls.run("support-bot", "hint-1", "alpha", 1);
        List<ClassifiedCall> calls = calls(t, null);
        Run run = RunBuilder.build("support-bot", "hint-1", calls, calls.get(calls.size() - 1), null);

        assertThat(run.session()).isNull();
        assertThat(io.raglog.schemas.Json.write(run)).doesNotContain("\"session\"");
        Run incomplete = RunBuilder.build("support-bot", "hint-1", calls.subList(0, 2), calls.get(0), "timeout");
        assertThat(AskedQuestion.of(incomplete)).isNull();
    }
}

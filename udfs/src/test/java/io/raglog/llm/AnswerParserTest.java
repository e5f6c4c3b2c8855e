package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.EvidenceLocation;
import org.junit.jupiter.api.Test;

class AnswerParserTest {

    @Test
    void shouldReadEachCheckOfTheCannedModel() {
        for (LlmCheck check : LlmCheck.values()) {
            assertThat(AnswerParser.parse(check, CannedAnswers.forCheck(check)).features()).isNotEmpty();
        }
    }

    @Test
    void shouldRejectAConfidenceOutsideZeroToHundred() {
        assertThatThrownBy(() -> AnswerParser.parse(LlmCheck.RERANK,
                "{\"answer_dropped\": 120, \"bad_order\": 0, \"fault\": 0}"))
                .isInstanceOf(BadReplyException.class).hasMessageContaining("answer_dropped");
    }

    @Test
    void shouldRejectAMissingFieldProseAndUnknownVerdicts() {
        assertThatThrownBy(() -> AnswerParser.parse(LlmCheck.REWRITE, "{\"fault\": 3}"))
                .isInstanceOf(BadReplyException.class);
        assertThatThrownBy(() -> AnswerParser.parse(LlmCheck.REWRITE, "The rewrite looks fine to me."))
                .isInstanceOf(BadReplyException.class);
        assertThatThrownBy(() -> AnswerParser.parse(LlmCheck.SUPPORT,
                "{\"statements\": [{\"statement\": \"x\", \"verdict\": \"probably\"}], \"fault\": 0}"))
                .isInstanceOf(BadReplyException.class).hasMessageContaining("probably");
    }

    @Test
    void shouldTurnTheEvidenceFlowIntoShares() {
        CheckAnswer a = AnswerParser.parse(LlmCheck.EVIDENCE_FLOW, "{\"pieces\": ["
                + "{\"piece\": \"cash flow 2023\", \"location\": \"only_dropped\", \"passage_ids\": [\"d1\"], \"answer\": \"omitted\"},"
                + "{\"piece\": \"company\", \"location\": \"in_context\", \"passage_ids\": [\"d2\"], \"answer\": \"included\"},"
                + "{\"piece\": \"currency\", \"location\": \"nowhere\", \"passage_ids\": [], \"answer\": \"contradicted\"}]}");
        assertThat(a.evidenceFlow().pieces()).extracting(p -> p.location())
                .containsExactly(EvidenceLocation.ONLY_DROPPED, EvidenceLocation.IN_CONTEXT, EvidenceLocation.NOWHERE);
        assertThat(a.features()).containsEntry(FLOW_PIECES, 3.0).containsEntry(FLOW_OMITTED_SHARE, 0.0)
                .containsEntry(FLOW_DROPPED_SHARE, 1.0 / 3).containsEntry(FLOW_MISSING_SHARE, 1.0 / 3)
                .containsEntry(FLOW_CONTRADICTED_SHARE, 1.0 / 3);
    }

    @Test
    void shouldLeaveSharesOfNothingMissing() {
        CheckAnswer a = AnswerParser.parse(LlmCheck.SUPPORT, "{\"statements\": [], \"fault\": 0, \"findings\": []}");
        assertThat(a.features()).containsEntry(LLM_SUPPORT_STATEMENTS, 0.0).doesNotContainKey(LLM_SUPPORT_UNSUPPORTED);
    }
}

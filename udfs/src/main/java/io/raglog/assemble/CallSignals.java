package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.SynthesisSteps;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one call says about the run it belongs to, normalised once so that linking compares strings, not JSON:
 * the question it carries, the query texts it produced or consumed, its vectors, its passages.
 */
final class CallSignals {

    final ClassifiedCall call;
    final Stage stage;
    final long startMs;
    final long endMs;
    /** The user's question (rewrite input, generator question). */
    final String question;
    /** Queries a rewriter wrote. */
    final Set<String> producedQueries;
    /**
     * Queries a rewriter's own conversation shows it sent a search tool in earlier turns: an agent that searches
     * again after reading what its first search found ({@link RewriteQueries#searchedBefore}).
     */
    final Set<String> searchedBefore;
    /** Texts sent to be embedded or searched, or the rerank query. */
    final Set<String> consumedQueries;
    final List<float[]> producedVectors;
    final float[] consumedVector;
    /** Passages a retriever returned, or those a reranker kept. */
    final List<String> producedPassages;
    /** Passages a reranker was given. */
    final List<String> consumedPassages;
    /** The generator's prompt, normalised, for containment tests. */
    final String prompt;
    /** The prompt and passages as normalised here, for building the run, which reads them again. */
    final NormalisedTexts normalised;
    /** A generator's answer, normalised when first asked ({@link #answer()}): most runs never ask. */
    private String answer;
    private boolean answerRead;
    /**
     * The earlier answer a generator's prompt hands it to refine ({@link SynthesisSteps}), normalised; null when it
     * carries none.
     */
    final String priorAnswer;

    CallSignals(ClassifiedCall call) {
        this.call = call;
        this.stage = call.stage();
        this.startMs = call.event().startedAt().toEpochMilli();
        this.endMs = call.event().endedAt().toEpochMilli();
        this.normalised = new NormalisedTexts(textsToNormalise(call));
        String q = null;
        float[] vector = null;
        String promptText = "";
        String prior = null;
        // the collections a call of this stage fills, read-only empty ones for the rest: five per call, of which a
        // call fills two at most, were a twentieth of what linking a run allocated (JFR of assembleRun, issue #27)
        Set<String> produced = Collections.emptySet();
        Set<String> searched = Collections.emptySet();
        Set<String> consumed = Collections.emptySet();
        List<float[]> vectors = Collections.emptyList();
        List<String> passagesOut = Collections.emptyList();
        List<String> passagesIn = Collections.emptyList();
        if (call.detail() instanceof ChatDetail chat) {
            q = Texts.norm(chat.question());
            if (stage == Stage.REWRITE) {
                produced = new LinkedHashSet<>();
                for (String out : RewriteQueries.split(chat.output())) {
                    produced.add(Texts.norm(out));
                }
                searched = RewriteQueries.searchedBefore(chat.messages());
            } else {
                promptText = normalised.prompt(chat);
                if (stage == Stage.GENERATE) {
                    String carried = SynthesisSteps.priorAnswer(chat);
                    prior = carried == null ? null : Texts.norm(carried);
                }
            }
        } else if (call.detail() instanceof EmbedDetail embed) {
            consumed = new LinkedHashSet<>();
            for (String t : embed.texts()) {
                consumed.add(Texts.norm(t));
            }
            if (embed.vectors() != null) {
                vectors = new ArrayList<>(embed.vectors());
            }
        } else if (call.detail() instanceof RetrieveDetail retrieve) {
            if (retrieve.queryText() != null) {
                consumed = new LinkedHashSet<>();
                consumed.add(Texts.norm(retrieve.queryText()));
            }
            vector = retrieve.queryVector();
            passagesOut = new ArrayList<>(retrieve.passages().size());
            for (Passage p : retrieve.passages()) {
                passagesOut.add(normalised.text(p.text()));
            }
        } else if (call.detail() instanceof RerankDetail rerank) {
            if (rerank.query() != null) {
                consumed = new LinkedHashSet<>();
                consumed.add(Texts.norm(rerank.query()));
            }
            passagesIn = new ArrayList<>(rerank.documents().size());
            for (String d : rerank.documents()) {
                passagesIn.add(normalised.text(d));
            }
            passagesOut = new ArrayList<>(rerank.results().size());
            for (RerankDetail.RerankResult r : rerank.results()) {
                if (r.index() >= 0 && r.index() < rerank.documents().size()) {
                    passagesOut.add(normalised.text(rerank.documents().get(r.index())));
                }
            }
        }
        this.question = q == null || q.isEmpty() ? null : q;
        this.consumedVector = vector;
        this.prompt = promptText;
        this.priorAnswer = prior == null || prior.isEmpty() ? null : prior;
        consumed.remove("");
        produced.remove("");
        this.producedQueries = produced;
        this.searchedBefore = searched;
        this.consumedQueries = consumed;
        this.producedVectors = vectors;
        this.producedPassages = passagesOut;
        this.consumedPassages = passagesIn;
    }

    /** How many texts this call normalises into {@link #normalised}: its memo is sized for them (issue #27). */
    private static int textsToNormalise(ClassifiedCall call) {
        if (call.detail() instanceof ChatDetail) {
            return 1;
        } else if (call.detail() instanceof RetrieveDetail retrieve) {
            return retrieve.passages().size();
        } else if (call.detail() instanceof RerankDetail rerank) {
            return rerank.documents().size();
        }
        return 0;
    }

    /** Read only when loose linking needs them (a run left without an embedding), then kept. */
    private List<NearText.Embedded> embedded;
    private List<List<String>> sourceWords;

    /** An embedding call's texts as near-text linking reads them. */
    List<NearText.Embedded> embedded() {
        if (embedded == null) {
            List<NearText.Embedded> out = new ArrayList<>();
            for (String t : consumedQueries) {
                out.add(NearText.Embedded.of(t));
            }
            embedded = out;
        }
        return embedded;
    }

    /** The words of the texts this call holds that its run's embedded text can come from ({@link NearText}). */
    List<List<String>> sourceWords() {
        if (sourceWords == null) {
            sourceWords = NearText.sourceWords(this);
        }
        return sourceWords;
    }

    /**
     * Whether this generator call is a later step of an answer {@code earlier} began: it asks the same question, came
     * after {@code earlier} ({@link #mayFollow}), and carries its answer, to refine ({@link #refines}: LlamaIndex's and
     * LangChain's refine) or as a passage of its context ({@link #summarises}: LlamaIndex's tree summary, the answers
     * over parts of the context summarised into one).
     */
    boolean continues(CallSignals earlier) {
        return refines(earlier) || summarises(earlier);
    }

    /**
     * Whether this rewrite call is an agent's later turn after {@code earlier}: its conversation carries a search
     * {@code earlier} asked for. One run, though a run has one rewriter: the agent is that rewriter, called per search.
     */
    boolean searchesAfter(CallSignals earlier) {
        if (searchedBefore.isEmpty() || earlier.stage != Stage.REWRITE) {
            return false;
        }
        for (String q : earlier.producedQueries) {
            if (searchedBefore.contains(q)) {
                return true;
            }
        }
        return false;
    }

    /** A generator's answer, normalised; null for other calls and an empty answer. */
    String answer() {
        if (!answerRead) {
            String output = call.detail() instanceof ChatDetail chat && stage == Stage.GENERATE ? chat.output() : null;
            String normalised = output == null ? "" : Texts.norm(output);
            answer = normalised.isEmpty() ? null : normalised;
            answerRead = true;
        }
        return answer;
    }

    /** This generator call carries {@code earlier}'s answer to refine. */
    boolean refines(CallSignals earlier) {
        return priorAnswer != null && mayFollow(earlier) && priorAnswer.equals(earlier.answer());
    }

    /** This generator call carries {@code earlier}'s answer as a passage of its context. */
    boolean summarises(CallSignals earlier) {
        if (!mayFollow(earlier)) {
            return false;
        }
        List<String> passages = ((ChatDetail) call.detail()).contextPassages();
        for (String passage : passages == null ? List.<String>of() : passages) {
            if (normalised.text(passage).equals(earlier.answer())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether this generator call can carry {@code earlier}'s answer: the same question, asked no sooner. Neither
     * "started after it ended" nor "ended after it ended": the proxy stamps a call's end once it has finished writing
     * the reply, and the client, which has the reply by then, may already have sent the next step (most likely what
     * split a LlamaIndex.TS refine in one CI run), and on a busy machine even had it answered before the stamp (a
     * LangChain.js refine's second step, whose answer the third carried, stamped after the third ended, split in
     * another); which answer a step carries says their order.
     */
    private boolean mayFollow(CallSignals earlier) {
        return stage == Stage.GENERATE && earlier.stage == Stage.GENERATE && question != null
                && question.equals(earlier.question) && startMs >= earlier.startMs
                && !failed() && !earlier.failed() && earlier.answer() != null;
    }

    /**
     * Whether this rerank call and {@code other} are batches of one ranking: the same query over documents neither
     * shares (LlamaIndex's {@code LLMRerank} asks about its documents a batch at a time). A second rerank of the same
     * documents is another run's, or a window of a sliding ranking (RankGPT), not a batch.
     */
    boolean batchOf(CallSignals other) {
        if (stage != Stage.RERANK || other.stage != Stage.RERANK || failed() || other.failed()
                || consumedQueries.isEmpty() || !consumedQueries.equals(other.consumedQueries)) {
            return false;
        }
        for (String p : consumedPassages) {
            if (other.consumedPassages.contains(p)) {
                return false;
            }
        }
        return true;
    }

    String eventId() {
        return call.event().eventId();
    }

    boolean failed() {
        return call.event().failed();
    }

    boolean isCloser() {
        return isCloser(call);
    }

    /** A generator call that succeeded: it closes its run. */
    static boolean isCloser(ClassifiedCall call) {
        return call.stage() == Stage.GENERATE && !call.event().failed();
    }
}

package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.AnswerStyle;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.Mix;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.RewriteStyle;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Nodes;
import io.raglog.simulator.wire.OpenAi;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Held out for evaluation, never trained on (not part of {@code --profile all}): an agent with a search tool, as
 * LangChain's and the OpenAI Agents SDK's tutorials build one. gpt-4.1-mini is given the question and a
 * {@code search_knowledge_base} function; its first turn calls the function with a query it wrote (the run's rewrite:
 * its faults are the agent's), the tool embeds the query (OpenAI, 384 dimensions), searches an in-process store (no
 * retrieval call) and reranks with Cohere; the second turn carries the tool's result, the reranked passages, and
 * answers. No run hint: the turns are linked by content alone.
 */
public final class UnseenAgentOpenAiProfile implements Profile {

    static final String OPENAI = "https://api.openai.com";
    static final String MODEL = "gpt-4.1-mini";
    static final String MODEL_VERSION = "gpt-4.1-mini-2025-04-14";
    static final String TOOL = "search_knowledge_base";
    static final String SYSTEM = "You are a research assistant. Use the search_knowledge_base tool to find passages "
            + "before you answer, and answer only from what it returns. If it returns nothing that answers, say so.";
    static final int DIMENSIONS = 384;

    private static final StackShape SHAPE = new StackShape(true, 8, 3, 512, GeneratorSkill.FRONTIER);

    static final List<String> REFUSALS = List.of(
            "The search didn't turn up anything that answers this.",
            "I searched the knowledge base but found nothing on that.",
            "None of the passages I found answer that question.",
            "I couldn't find an answer to that in the knowledge base.");

    private static final PipelineStyle STYLE = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.5, RewriteStyle.PARAPHRASE, 0.4, RewriteStyle.EXPANSION, 0.1),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.25, AnswerStyle.PARAPHRASED, 0.35, AnswerStyle.VERBOSE, 0.2,
                    AnswerStyle.CITED, 0.1, AnswerStyle.LIST, 0.1),
            REFUSALS, 0.01);

    @Override
    public String name() {
        return "unseen-agent-openai";
    }

    @Override
    public String pipeline() {
        return "research-agent";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return STYLE;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(arrival, rng), rng);
        String question = run.question().question();
        List<ObjectNode> messages = new ArrayList<>(List.of(Nodes.message("system", SYSTEM),
                Nodes.message("user", question)));

        String callId = "call_" + Ids.base62(rng, 24);
        String arguments = Nodes.object().put("query", run.rewrite()).toString();
        ObjectNode toolCall = Nodes.object().put("id", callId).put("type", "function");
        toolCall.putObject("function").put("name", TOOL).put("arguments", arguments);
        int searchPrompt = Tokens.promptTokens(List.of(SYSTEM, question)) + 60;
        int searchOut = Tokens.count(arguments);
        ObjectNode searchReply = OpenAi.chatResponse("chatcmpl-" + Ids.base62(rng, 29),
                rec.timeline().now().getEpochSecond(), MODEL_VERSION, "fp_" + Ids.hex(rng, 10), null, searchPrompt,
                searchOut);
        ObjectNode searchChoice = (ObjectNode) searchReply.path("choices").path(0);
        ((ObjectNode) searchChoice.get("message")).putArray("tool_calls").add(toolCall);
        searchChoice.put("finish_reason", "tool_calls");
        rec.record(OPENAI + "/v1/chat/completions", Headers.openAiRequest(), withTool(OpenAi.chatRequest(MODEL,
                List.copyOf(messages), false, 0.0)), CallRecorder.Reply.json(searchReply, Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit(MODEL, rng), 420 + 18.0 * searchOut, 0.3);

        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", TextNode.valueOf(run.embedText()), DIMENSIONS,
                        "base64"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-small",
                        List.of(run.queryVector()), true, Tokens.count(run.embedText())), Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("text-embedding-3-small", rng), 70, 0.35);
        // the in-process store's search leaves no call behind
        rec.timeline().pause(1 + rng.nextInt(2));
        OpenAiQdrantCohereProfile.recordCohereRerank(rec, run, SHAPE.topN(), rng);

        ObjectNode assistant = Nodes.object().put("role", "assistant").putNull("content");
        assistant.putArray("tool_calls").add(toolCall.deepCopy());
        messages.add(assistant);
        String result = toolResult(run.context());
        messages.add(Nodes.object().put("role", "tool").put("tool_call_id", callId).put("content", result));
        int answerPrompt = Tokens.promptTokens(List.of(SYSTEM, question, arguments, result)) + 60;
        int answerTokens = Tokens.count(run.answer().text());
        CallEvent generator = rec.record(OPENAI + "/v1/chat/completions", Headers.openAiRequest(),
                withTool(OpenAi.chatRequest(MODEL, messages, false, 0.0)),
                CallRecorder.Reply.json(OpenAi.chatResponse("chatcmpl-" + Ids.base62(rng, 29),
                        rec.timeline().now().getEpochSecond(), MODEL_VERSION, "fp_" + Ids.hex(rng, 10),
                        run.answer().text(), answerPrompt, answerTokens), Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit(MODEL, rng), 500 + 20.0 * answerTokens, 0.3);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    /** The request with the search function offered, as {@code bindTools} sends it. */
    private static ObjectNode withTool(ObjectNode request) {
        ObjectNode function = request.putArray("tools").addObject().put("type", "function").putObject("function")
                .put("name", TOOL).put("description", "Searches the knowledge base and returns the most relevant "
                        + "passages.");
        ObjectNode parameters = function.putObject("parameters").put("type", "object");
        parameters.putObject("properties").putObject("query").put("type", "string");
        ArrayNode required = parameters.putArray("required");
        required.add("query");
        return request;
    }

    /** The tool's result as LangChain's retriever tool writes it: the passages' texts, a blank line between. */
    private static String toolResult(List<Chunk> context) {
        StringBuilder sb = new StringBuilder();
        for (Chunk c : context) {
            sb.append(sb.isEmpty() ? "" : "\n\n").append(c.text());
        }
        return sb.toString();
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        return LangChainMemoryProfile.inProcessIndexing(pipeline(), batch, index, at, rng);
    }
}

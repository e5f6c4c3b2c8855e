package io.raglog.cli.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.raglog.schemas.Json;
import io.raglog.simulator.text.HashedEmbedder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The paid APIs a LangChain.js client calls, stood in on a real socket: OpenAI's embeddings and chat completions and
 * Cohere's rerank, in the shapes their SDKs send and expect (base64 vectors when the SDK asks for them, as OpenAI's
 * Node SDK does by default). Their answers are deterministic and plausible, not intelligent: the embeddings are the
 * simulator's hashed bag of words, the rewrite keeps the question's content words, the reranker and the generator
 * pick by shared words. The client, the proxy and raglog are the real parts under test.
 */
final class StandInApis implements AutoCloseable {

    /** What the stand-in model answers when no sentence of its context shares a word with the question. */
    static final String REFUSAL = "The context provided does not say.";

    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "of", "in", "on", "at", "to", "for",
            "by", "with", "from", "and", "or", "is", "are", "was", "were", "be", "been", "did", "does", "do", "what",
            "which", "who", "whom", "whose", "when", "where", "why", "how", "that", "this", "these", "those", "it",
            "its", "as", "into", "than", "then", "there", "their", "they", "has", "have", "had", "much", "many");

    private final HttpServer server;
    private final HashedEmbedder embedder;
    private final AtomicInteger replies = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();

    private StandInApis(HttpServer server, HashedEmbedder embedder) {
        this.server = server;
        this.embedder = embedder;
    }

    static StandInApis start(HashedEmbedder embedder) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        StandInApis apis = new StandInApis(server, embedder);
        server.createContext("/v1/embeddings", e -> apis.reply(e, apis.embeddings(read(e))));
        server.createContext("/v1/chat/completions", e -> {
            JsonNode request = read(e);
            JsonNode completion = apis.chat(request);
            if (request.path("stream").asBoolean()) {
                apis.stream(e, completion, request.path("stream_options").path("include_usage").asBoolean());
            } else {
                apis.reply(e, completion);
            }
        });
        server.createContext("/v1/rerank", e -> apis.reply(e, apis.rerank(read(e))));
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        return apis;
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static JsonNode read(HttpExchange exchange) throws IOException {
        return Json.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
    }

    /** The requests answered so far, every endpoint together. */
    int requests() {
        return requests.get();
    }

    private void reply(HttpExchange exchange, JsonNode body) throws IOException {
        requests.incrementAndGet();
        byte[] bytes = Json.MAPPER.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * A chat completion as OpenAI streams it when asked ({@code "stream": true}): server-sent events of
     * {@code chat.completion.chunk}s, the role first, the content a few words at a time, the finish reason, then,
     * when the request's {@code stream_options} ask for it, the usage in a chunk with no choices, and {@code [DONE]}.
     * Each event is flushed on its own, so the proxy relays a reply that arrives over time.
     */
    private void stream(HttpExchange exchange, JsonNode completion, boolean includeUsage) throws IOException {
        requests.incrementAndGet();
        String content = completion.path("choices").path(0).path("message").path("content").asText();
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, chunk(completion, Json.MAPPER.createObjectNode().put("role", "assistant").put("content", ""),
                    null));
            // pieces that keep their spaces, so the client's concatenation is the content exactly
            for (String piece : content.split("(?<= )(?=\\S)")) {
                event(out, chunk(completion, Json.MAPPER.createObjectNode().put("content", piece), null));
            }
            event(out, chunk(completion, Json.MAPPER.createObjectNode(), "stop"));
            if (includeUsage) {
                ObjectNode usage = chunkFrame(completion);
                usage.putArray("choices");
                usage.set("usage", completion.path("usage"));
                event(out, usage);
            }
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    /** One {@code chat.completion.chunk} of the completion: its one choice's delta and finish reason (or null). */
    private static ObjectNode chunk(JsonNode completion, ObjectNode delta, String finishReason) {
        ObjectNode chunk = chunkFrame(completion);
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.put("finish_reason", finishReason);
        return chunk;
    }

    private static ObjectNode chunkFrame(JsonNode completion) {
        return Json.MAPPER.createObjectNode().put("id", completion.path("id").asText())
                .put("object", "chat.completion.chunk").put("created", completion.path("created").asLong())
                .put("model", completion.path("model").asText());
    }

    private static void event(OutputStream out, JsonNode data) throws IOException {
        out.write(("data: " + Json.MAPPER.writeValueAsString(data) + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** OpenAI's {@code /v1/embeddings}: one string or a batch, float arrays or, when asked, base64 float32. */
    private JsonNode embeddings(JsonNode request) {
        List<String> inputs = new ArrayList<>();
        if (request.path("input").isArray()) {
            request.path("input").forEach(n -> inputs.add(n.asText()));
        } else {
            inputs.add(request.path("input").asText());
        }
        boolean base64 = "base64".equals(request.path("encoding_format").asText());
        ObjectNode response = Json.MAPPER.createObjectNode().put("object", "list");
        ArrayNode data = response.putArray("data");
        int tokens = 0;
        for (int i = 0; i < inputs.size(); i++) {
            float[] vector = embedder.embed(inputs.get(i));
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            if (base64) {
                ByteBuffer bytes = ByteBuffer.allocate(4 * vector.length).order(ByteOrder.LITTLE_ENDIAN);
                for (float v : vector) {
                    bytes.putFloat(v);
                }
                item.put("embedding", Base64.getEncoder().encodeToString(bytes.array()));
            } else {
                ArrayNode values = item.putArray("embedding");
                for (float v : vector) {
                    values.add(v);
                }
            }
            tokens += words(inputs.get(i)).size();
        }
        response.put("model", request.path("model").asText());
        response.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        return response;
    }

    /**
     * OpenAI's {@code /v1/chat/completions}: an agent's turn is {@link #agentTurn}'s; a rewrite request (a system
     * message that asks to rewrite) gets the question's content words; a relevance gate gets its verdict
     * ({@link #gate}), a contextual compressor its extract ({@link #extract}), a refine step its answer kept or
     * bettered ({@link #refine}); an answer request gets the context's sentence that shares the most words with the
     * question, or a refusal when none shares any.
     */
    private JsonNode chat(JsonNode request) {
        JsonNode messages = request.path("messages");
        String system = messages.path(0).path("content").asText();
        String user = messages.path(messages.size() - 1).path("content").asText();
        if (request.has("tools")) {
            return agentTurn(request, messages);
        }
        String content = system.startsWith("Rewrite") && messages.size() > 1 ? rewrite(user)
                : user.endsWith(GATE_VERDICTS) ? gate(user)
                : user.startsWith(EXTRACTION) ? extract(user)
                : REFINE.matcher(user).lookingAt() ? refine(user)
                : answer(user.contains("Question:") || !system.startsWith(CONTEXT_BELOW) || messages.size() < 2 ? user
                        : system + "\nQuestion: " + user);
        return completion(request, Json.MAPPER.createObjectNode().put("role", "assistant").put("content", content),
                "stop", words(system + " " + user).size(), words(content).size());
    }

    /**
     * An agent's turn ({@code langchain-rag.mjs} in agent mode, a request that offers tools): before any tool's result,
     * a call to the first tool with the question's content words as its {@code query}; after one, for a question of an
     * odd number of content words, a second call, its query narrowed by the first word of what the first search found
     * that the question lacks (as an agent searches again with what it learned); else the answer {@link #answer} finds
     * in the tools' results for the user's question.
     */
    private JsonNode agentTurn(JsonNode request, JsonNode messages) {
        String question = "";
        StringBuilder results = new StringBuilder();
        int searches = 0;
        for (JsonNode m : messages) {
            String role = m.path("role").asText();
            question = "user".equals(role) ? m.path("content").asText() : question;
            if ("tool".equals(role)) {
                results.append(results.isEmpty() ? "" : "\n\n").append(m.path("content").asText());
                searches++;
            }
        }
        String query = searches == 0 ? rewrite(question) : searches == 1 ? narrowed(question, results.toString())
                : null;
        if (query == null) {
            String content = answer(results + "\nQuestion: " + question);
            return completion(request, Json.MAPPER.createObjectNode().put("role", "assistant").put("content", content),
                    "stop", words(results + " " + question).size(), words(content).size());
        }
        ObjectNode message = Json.MAPPER.createObjectNode().put("role", "assistant").putNull("content");
        String arguments = Json.MAPPER.createObjectNode().put("query", query).toString();
        message.putArray("tool_calls").addObject().put("id", "call_standin" + replies.incrementAndGet())
                .put("type", "function").putObject("function")
                .put("name", request.path("tools").path(0).path("function").path("name").asText())
                .put("arguments", arguments);
        return completion(request, message, "tool_calls", words(question).size(), words(arguments).size());
    }

    /**
     * The query of an agent's second search, or null when it answers after one: for a question of an odd number of
     * content words, its rewrite and the first content word of the first search's result the question lacks.
     */
    private static String narrowed(String question, String found) {
        Set<String> asked = contentWords(question);
        if (asked.size() % 2 == 0) {
            return null;
        }
        for (String w : words(found)) {
            if (!STOP_WORDS.contains(w) && !asked.contains(w) && w.chars().allMatch(Character::isLetter)) {
                return rewrite(question) + " " + w;
            }
        }
        return null;
    }

    private ObjectNode completion(JsonNode request, ObjectNode message, String finishReason, int promptTokens,
            int completionTokens) {
        ObjectNode response = Json.MAPPER.createObjectNode()
                .put("id", "chatcmpl-standin" + replies.incrementAndGet())
                .put("object", "chat.completion")
                .put("created", 1_733_000_000L)
                .put("model", request.path("model").asText() + "-2024-07-18");
        ObjectNode choice = response.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finishReason);
        response.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return response;
    }

    /** Cohere's {@code /v1/rerank}: the documents ordered by the query words they share, the top {@code top_n}. */
    private JsonNode rerank(JsonNode request) {
        Set<String> query = contentWords(request.path("query").asText());
        List<String> documents = new ArrayList<>();
        request.path("documents").forEach(d -> documents.add(d.isTextual() ? d.asText() : d.path("text").asText()));
        int topN = request.path("top_n").asInt(documents.size());
        List<Integer> order = IntStream.range(0, documents.size()).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -overlap(query, documents.get(i)))
                        .thenComparing(i -> i))
                .limit(topN).toList();
        ObjectNode response = Json.MAPPER.createObjectNode().put("id", "rerank-standin" + replies.incrementAndGet());
        ArrayNode results = response.putArray("results");
        for (int i : order) {
            results.addObject().put("index", i).put("relevance_score", overlap(query, documents.get(i)));
        }
        response.putObject("meta").putObject("billed_units").put("search_units", 1);
        return response;
    }

    /** How a relevance gate's prompt ends ({@code langchain-rag.mjs}): the verdicts it must answer with. */
    private static final String GATE_VERDICTS = "Respond with only: SUFFICIENT or INSUFFICIENT";

    /** Below this share of the question's content words in one sentence of the chunks, the gate says no. */
    private static final double GATE_OVERLAP = 0.6;

    /**
     * A relevance gate's verdict: SUFFICIENT when one sentence of the chunks holds most of the question's content
     * words, as {@link #answer} would find it, else INSUFFICIENT.
     */
    private static String gate(String prompt) {
        int questionStart = prompt.indexOf('"') + 1;
        String question = prompt.substring(questionStart, prompt.indexOf("\"\n", questionStart));
        int chunksStart = prompt.indexOf("chunks:\n") + "chunks:\n".length();
        String chunks = prompt.substring(chunksStart, prompt.lastIndexOf("\n\nDo these chunks"));
        String[] sentences = chunks.replaceAll("\\[\\d+\\] ", "").split("(?<=[.!?])\\s+|\\n+");
        return mostLike(contentWords(question), sentences, any -> true).overlap() >= GATE_OVERLAP ? "SUFFICIENT"
                : "INSUFFICIENT";
    }

    /** How LangChain's LLMChainExtractor opens its prompt, one call per document. */
    private static final String EXTRACTION = "Given the following question and context, extract any part";

    /**
     * LLMChainExtractor's reply: the document's sentence sharing the most of the question's words, as it stands, or
     * NO_OUTPUT when none shares a third of them.
     */
    private static String extract(String prompt) {
        int q = prompt.indexOf("> Question: ") + "> Question: ".length();
        Set<String> question = contentWords(prompt.substring(q, prompt.indexOf('\n', q)));
        int from = prompt.indexOf(">>>\n") + ">>>\n".length();
        String document = prompt.substring(from, prompt.indexOf("\n>>>", from));
        Best best = mostLike(question, document.split("(?<=[.!?])\\s+"), any -> true);
        return best.sentence() == null || best.overlap() < 1 / 3.0 ? "NO_OUTPUT" : best.sentence().strip();
    }

    private static String rewrite(String question) {
        return words(question).stream().filter(w -> !STOP_WORDS.contains(w)).collect(Collectors.joining(" "));
    }

    /**
     * The context's sentence sharing the most words with the question (after the prompt's last "Question:" or
     * "Query:", as LangChain's and LlamaIndex's templates put it).
     */
    private static String answer(String prompt) {
        int split = Math.max(prompt.lastIndexOf("Question:"), prompt.lastIndexOf("Query:"));
        String context = split < 0 ? prompt : prompt.substring(0, split);
        Set<String> question = contentWords(split < 0 ? "" : prompt.substring(split).replaceFirst("^\\w+:", ""));
        Best best = mostLike(question, context.replaceAll("\\[\\d+\\] ", "").split("(?<=[.!?])\\s+|\\n+"),
                sentence -> !sentence.contains("---") && !sentence.startsWith("Context"));
        return best.sentence() == null ? REFUSAL : best.sentence().trim();
    }

    /** How LlamaIndex's and LangChain's refine prompts open: a later step of an answer synthesised in several calls. */
    private static final Pattern REFINE = Pattern.compile("The original (?:query|question) is as follows: ");

    /** How LangChain's refine chain's first step opens its system message, the context in it, the question after. */
    private static final String CONTEXT_BELOW = "Context information is below.";

    /**
     * A refine step ({@code llamaindex-rag.mjs} in refine mode): the new context's sentence most like the question when
     * it shares more of the question's words than the answer to refine, else that answer as it was.
     */
    private static String refine(String prompt) {
        Matcher opening = REFINE.matcher(prompt);
        opening.lookingAt();
        Set<String> question = contentWords(prompt.substring(opening.end(), prompt.indexOf('\n')));
        int from = prompt.indexOf("existing answer: ") + "existing answer: ".length();
        String existing = prompt.substring(from, prompt.indexOf("\nWe have the opportunity", from));
        String[] parts = prompt.split("\n-{3,}\n");
        Best best = mostLike(question, parts[1].split("(?<=[.!?])\\s+|\\n+"), any -> true);
        return best.sentence() != null && best.overlap() > overlap(question, existing) ? best.sentence().trim()
                : existing;
    }

    /** A sentence and the share of the question's content words it holds. */
    private record Best(String sentence, double overlap) {}

    /** Of the sentences {@code allowed} lets through, the first with the largest share of the question's words. */
    private static Best mostLike(Set<String> question, String[] sentences, Predicate<String> allowed) {
        String best = null;
        double bestOverlap = 0;
        for (String sentence : sentences) {
            double overlap = overlap(question, sentence);
            if (overlap > bestOverlap && allowed.test(sentence)) {
                best = sentence;
                bestOverlap = overlap;
            }
        }
        return new Best(best, bestOverlap);
    }

    /** The share of the query's content words the text holds. */
    private static double overlap(Set<String> query, String text) {
        if (query.isEmpty()) {
            return 0;
        }
        Set<String> held = contentWords(text);
        return query.stream().filter(held::contains).count() / (double) query.size();
    }

    private static Set<String> contentWords(String text) {
        return words(text).stream().filter(w -> !STOP_WORDS.contains(w)).collect(Collectors.toSet());
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

// A LangChain.js RAG client as a team would write it (a rewrite, OpenAI embeddings, LangChain's in-memory vector
// store, Cohere rerank, OpenAI chat), run by raglog's JsRagClientsTest through the logging proxy. No retrieval
// call is on the wire and no run header is sent: raglog must link each question's calls by their content alone.
//
//   node langchain-rag.mjs PLAN.json
//
// PLAN.json: {"passages": [{"id", "text"}], "questions": [{"id", "question", "embedFault", "contextBudget", "stream",
// "gate", "compress"}], "concurrency", "responseMode"}; embedFault: how the client gets the rewrite it embeds wrong,
// contextBudget: the characters its prompt's context may take, if any (query-faults.mjs); stream: the answer is
// streamed, as a chat UI shows it; gate: a relevance gate asks the chat model whether the context suffices first, and
// the client answers nothing when it says no; compress: LangChain's LLMChainExtractor keeps what of each reranked
// passage the chat model finds relevant (one call per passage), and the prompt gets those extracts; responseMode
// "refine": LangChain's refine chain answers (its chat prompts, a call per reranked passage, none streamed); "agent":
// the chat model is an agent with a search tool (OpenAI function calling through bindTools): it writes the query in
// its call to the tool, the tool embeds, searches and reranks, and the model answers from the tool's results or
// searches again first.
// Prints one JSON line per question: its id, what was embedded (an agent: the text of each search, in order, how many
// and the passages its searches returned, told apart by text), each reranked passage's fate in the prompt, whether the
// gate stopped it, what reached the prompt (the extracts, when compressed) and the answer.
import { readFileSync } from "node:fs";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { CohereRerank } from "@langchain/cohere";
import { CohereClient } from "cohere-ai";
import { MemoryVectorStore } from "langchain/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import { LLMChainExtractor } from "langchain/retrievers/document_compressors/chain_extract";
import { loadQARefineChain } from "langchain/chains";
import { HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { askAll, contextOf, queryToEmbed } from "./query-faults.mjs";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const openAi = { apiKey: process.env.OPENAI_API_KEY, configuration: { baseURL: process.env.OPENAI_BASE_URL } };

const embeddings = new OpenAIEmbeddings({ ...openAi, model: "text-embedding-3-small" });
const chat = new ChatOpenAI({ ...openAi, model: "gpt-4o-mini", temperature: 0 });
const reranker = new CohereRerank({
  model: "rerank-english-v3.0",
  topN: 3,
  client: new CohereClient({ token: process.env.COHERE_API_KEY, environment: process.env.COHERE_BASE_URL }),
});

const extractor = LLMChainExtractor.fromLLM(chat);
const refineChain = loadQARefineChain(chat);

const REWRITE =
  "Rewrite the user's question as a short search query for the knowledge base. Reply with the query only.";
const ANSWER =
  "You answer questions using only the context provided. If the context does not contain the answer, say so.";
const gatePrompt = (question, context) => `Given this query: "${question}"\n\nAnd these retrieved chunks:\n${context}`
  + "\n\nDo these chunks contain sufficient information to answer the query accurately? Respond with only: "
  + "SUFFICIENT or INSUFFICIENT";

const SEARCH_TOOL = {
  type: "function",
  function: {
    name: "search_knowledge_base",
    description: "Searches the knowledge base and returns the passages most relevant to a query.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "What to search the knowledge base for" } },
      required: ["query"],
    },
  },
};
const AGENT = "You answer questions with the search_knowledge_base tool: search first, then answer only from what it"
  + " returns. If it returns nothing relevant, say so.";
const agent = chat.bindTools([SEARCH_TOOL]);

// An agent's loop: the model calls the search tool with a query it wrote, the tool's result goes back to it, and it
// answers from what it found, or searches again first (as many times as it asks, up to three). The tool sees only the
// query, so an embedding fault that embeds the wrong field embeds the tool's query in it, not the user's question.
async function agentAnswer(store, q) {
  const messages = [new SystemMessage(AGENT), new HumanMessage(q.question)];
  const embedded = [];
  const seen = new Set();
  for (;;) {
    const decided = await agent.invoke(messages);
    const call = decided.tool_calls?.[0];
    if (!call || embedded.length === 3) {
      return { id: q.id, embedded, searches: embedded.length, passagesSeen: seen.size, stopped: false,
        answer: String(decided.content) };
    }
    const text = queryToEmbed(call.args.query, call.args.query, q.embedFault);
    embedded.push(text);
    const retrieved = await store.similaritySearchVectorWithScore(await embeddings.embedQuery(text), 6);
    const kept = await reranker.compressDocuments(retrieved.map(([doc]) => doc), call.args.query);
    kept.forEach((doc) => seen.add(doc.pageContent));
    const { context } = contextOf(kept.map((doc) => doc.pageContent), q.contextBudget);
    messages.push(decided, new ToolMessage({ content: context, tool_call_id: call.id }));
  }
}

async function answer(store, q) {
  if (plan.responseMode === "agent") {
    return agentAnswer(store, q);
  }
  const rewritten = await chat.invoke([new SystemMessage(REWRITE), new HumanMessage(q.question)]);
  const rewrite = String(rewritten.content).trim();
  const embedded = queryToEmbed(rewrite, q.question, q.embedFault);
  const retrieved = await store.similaritySearchVectorWithScore(await embeddings.embedQuery(embedded), 6);
  const kept = await reranker.compressDocuments(retrieved.map(([doc]) => doc), rewrite);
  const prompted = q.compress ? await extractor.compressDocuments(kept, q.question) : kept;
  const { context, fates } = contextOf(prompted.map((doc) => doc.pageContent), q.contextBudget);
  if (q.gate) {
    const verdict = String((await chat.invoke([new HumanMessage(gatePrompt(q.question, context))])).content).trim();
    if (verdict !== "SUFFICIENT") {
      return { id: q.id, embedded, fates, stopped: true, answer: null };
    }
  }
  if (plan.responseMode === "refine") {
    // LangChain's refine chain, its chat prompts: an answer from the first passage, refined with each next one
    const refined = await refineChain.invoke({ input_documents: prompted, question: q.question });
    return { id: q.id, embedded, fates, stopped: false, answer: refined.output_text };
  }
  const prompt = [new SystemMessage(ANSWER), new HumanMessage(`Context:\n${context}\n\nQuestion: ${q.question}`)];
  let reply = "";
  if (q.stream) {
    for await (const chunk of await chat.stream(prompt)) {
      reply += chunk.content;
    }
  } else {
    reply = String((await chat.invoke(prompt)).content);
  }
  return { id: q.id, embedded, fates, stopped: false, extracts: prompted.map((doc) => doc.pageContent), answer: reply };
}

const store = await MemoryVectorStore.fromDocuments(
  plan.passages.map((p) => new Document({ pageContent: p.text, metadata: { id: p.id } })),
  embeddings,
);
await askAll(plan, (q) => answer(store, q));

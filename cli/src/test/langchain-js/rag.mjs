// A LangChain.js RAG client as a team would write it, run by raglog's LangChainJsClientTest through the logging proxy.
// The knowledge base lives in LangChain's in-memory vector store (no retrieval call on the wire) and no run header is
// sent: raglog must link each question's calls by their content alone, the case the defaults of LangChain and
// LlamaIndex produce.
//
//   node rag.mjs PLAN.json
//
// PLAN.json: {"passages": [{"id", "text"}], "questions": [{"id", "question", "embedFault"}], "concurrency"}
// embedFault is how this question's query embedding goes wrong, as client code makes it go wrong:
//   none      the rewrite is embedded as it is
//   prefix    an instruction prefix, as E5/BGE-style models are queried (healthy: no fault)
//   truncate  the query cut at a character budget before embedding
//   typo      a keyboard-neighbour typo in the query's longest word
//   history   the condense-question prompt embedded as it was filled in, chat history and all (the wrong field)
// Prints one JSON line per question: its id, what was embedded and the answer.
import { readFileSync } from "node:fs";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { CohereRerank } from "@langchain/cohere";
import { CohereClient } from "cohere-ai";
import { MemoryVectorStore } from "langchain/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const openAi = { apiKey: process.env.OPENAI_API_KEY, configuration: { baseURL: process.env.OPENAI_BASE_URL } };

const embeddings = new OpenAIEmbeddings({ ...openAi, model: "text-embedding-3-small" });
const chat = new ChatOpenAI({ ...openAi, model: "gpt-4o-mini", temperature: 0 });
const reranker = new CohereRerank({
  model: "rerank-english-v3.0",
  topN: 3,
  client: new CohereClient({ token: process.env.COHERE_API_KEY, environment: process.env.COHERE_BASE_URL }),
});

const REWRITE =
  "Rewrite the user's question as a short search query for the knowledge base. Reply with the query only.";
const ANSWER =
  "You answer questions using only the context provided. If the context does not contain the answer, say so.";

const KEYBOARD = {
  a: "s", b: "v", c: "x", d: "s", e: "r", f: "g", g: "h", h: "j", i: "o", j: "k", k: "l", l: "k", m: "n",
  n: "m", o: "p", p: "o", q: "w", r: "t", s: "a", t: "y", u: "i", v: "b", w: "e", x: "z", y: "t", z: "x",
};

function queryToEmbed(rewrite, question, fault) {
  switch (fault) {
    case "prefix":
      return "Represent this sentence for searching relevant passages: " + rewrite;
    case "truncate":
      return rewrite.slice(0, Math.max(12, Math.floor(rewrite.length * 0.45)));
    case "typo": {
      const words = rewrite.split(" ");
      let longest = 0;
      words.forEach((w, i) => { if (w.length > words[longest].length) longest = i; });
      const w = words[longest];
      const at = Math.floor(w.length / 2);
      const swap = KEYBOARD[w[at].toLowerCase()] ?? w[at];
      words[longest] = w.slice(0, at) + swap + w.slice(at + 1, w.length - 1);
      return words.join(" ");
    }
    case "history":
      return "Chat History:\nHuman: Hello, I have a few questions about steam power.\nAssistant: Of course, ask away."
        + "\nFollow Up Input: " + question + "\nStandalone question:";
    default:
      return rewrite;
  }
}

async function answer(store, q) {
  const rewritten = await chat.invoke([new SystemMessage(REWRITE), new HumanMessage(q.question)]);
  const rewrite = String(rewritten.content).trim();
  const embedded = queryToEmbed(rewrite, q.question, q.embedFault);
  const retrieved = await store.similaritySearchVectorWithScore(await embeddings.embedQuery(embedded), 6);
  const kept = await reranker.compressDocuments(retrieved.map(([doc]) => doc), rewrite);
  const context = kept.map((doc, i) => `[${i + 1}] ${doc.pageContent}`).join("\n\n");
  const reply = await chat.invoke([
    new SystemMessage(ANSWER),
    new HumanMessage(`Context:\n${context}\n\nQuestion: ${q.question}`),
  ]);
  return { id: q.id, embedded, answer: String(reply.content) };
}

const store = await MemoryVectorStore.fromDocuments(
  plan.passages.map((p) => new Document({ pageContent: p.text, metadata: { id: p.id } })),
  embeddings,
);
// questions run a few at a time, as concurrent users' do: their calls interleave on the wire
const queue = [...plan.questions];
async function worker() {
  for (let q = queue.shift(); q; q = queue.shift()) {
    console.log(JSON.stringify(await answer(store, q)));
  }
}
await Promise.all(Array.from({ length: plan.concurrency ?? 4 }, worker));

// A LlamaIndex.TS RAG client as a team would write it from the framework's defaults (OpenAI embeddings, the in-memory
// vector store of VectorStoreIndex, a Cohere rerank postprocessor, OpenAI chat behind the default query engine and
// its prompt template), run by raglog's JsRagClientsTest through the logging proxy. There is no rewrite: the
// question itself is embedded. No retrieval call is on the wire and no run header is sent.
//
//   node llamaindex-rag.mjs PLAN.json
//
// PLAN.json as for langchain-rag.mjs; embedFault: how the client gets the question it embeds wrong
// (query-faults.mjs), in a subclass of the embedding model, as a team's own preprocessing would; responseMode, how
// the answer is synthesised ("refine": a chat call per passage, each refining the answer before it; else the
// default, "compact").
// Prints one JSON line per question: its id, what was embedded and the answer.
import { readFileSync } from "node:fs";
import { Document, Settings, VectorStoreIndex, getResponseSynthesizer } from "llamaindex";
import { OpenAI, OpenAIEmbedding } from "@llamaindex/openai";
import { CohereRerank } from "@llamaindex/cohere";
import { askAll, queryToEmbed } from "./query-faults.mjs";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const faults = new Map(plan.questions.map((q) => [q.question, q.embedFault]));
const embedded = new Map();

class PreparedQueryEmbedding extends OpenAIEmbedding {
  async getQueryEmbedding(query) {
    const question = typeof query === "string" ? query : query.text;
    const text = queryToEmbed(question, question, faults.get(question));
    embedded.set(question, text);
    return super.getQueryEmbedding(typeof query === "string" ? text : { ...query, text });
  }
}

const openAi = { apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
Settings.llm = new OpenAI({ ...openAi, model: "gpt-4o-mini", temperature: 0 });
Settings.embedModel = new PreparedQueryEmbedding({ ...openAi, model: "text-embedding-3-small" });

const index = await VectorStoreIndex.fromDocuments(
  plan.passages.map((p) => new Document({ text: p.text, id_: p.id })),
);
const engine = index.asQueryEngine({
  similarityTopK: 6,
  ...(plan.responseMode ? { responseSynthesizer: getResponseSynthesizer(plan.responseMode) } : {}),
  nodePostprocessors: [new CohereRerank({
    topN: 3, model: "rerank-english-v3.0", apiKey: process.env.COHERE_API_KEY, baseUrl: process.env.COHERE_BASE_URL,
  })],
});
await askAll(plan, async (q) => {
  const reply = await engine.query({ query: q.question });
  return { id: q.id, embedded: embedded.get(q.question), answer: String(reply.message?.content ?? reply) };
});

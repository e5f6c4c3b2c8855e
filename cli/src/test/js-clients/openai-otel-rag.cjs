// A RAG client written on the vendors' own SDKs (OpenAI's and Cohere's), no framework, traced with OpenTelemetry
// and OpenLLMetry's instrumentations as a team that already runs a tracing backend would: each question is one
// trace (the request span its web framework would open), the SDK calls its children, exported over OTLP/HTTP.
// raglog's JsRagClientsTest reads those traces, not the wire: no logging proxy is in the path.
//
//   node openai-otel-rag.cjs PLAN.json
//
// PLAN.json as for langchain-rag.mjs (query-faults.mjs); OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: where the traces go.
// Prints one JSON line per question: its id, its rewrite, what was embedded, each reranked passage's fate in the
// prompt and the answer. Written as CommonJS: OpenTelemetry's instrumentations patch a module as it is required.
const { readFileSync } = require("node:fs");
const { trace } = require("@opentelemetry/api");
const { NodeTracerProvider } = require("@opentelemetry/sdk-trace-node");
const { BatchSpanProcessor } = require("@opentelemetry/sdk-trace-base");
const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
const { resourceFromAttributes } = require("@opentelemetry/resources");
const { registerInstrumentations } = require("@opentelemetry/instrumentation");
const { OpenAIInstrumentation } = require("@traceloop/instrumentation-openai");
const { CohereInstrumentation } = require("@traceloop/instrumentation-cohere");

const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": "support-bot-otel" }),
  // batched, as in production: one export per span (SimpleSpanProcessor) passes the exporter's limit of concurrent
  // exports when a few dozen questions are answered at once, and the spans past it are lost
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
});
provider.register();
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation(), new CohereInstrumentation()] });

const { OpenAI } = require("openai");
const { CohereClient } = require("cohere-ai");

const REWRITE =
  "Rewrite the user's question as a short search query for the knowledge base. Reply with the query only.";
const ANSWER =
  "You answer questions using only the context provided. If the context does not contain the answer, say so.";

async function main() {
  const { askAll, contextOf, queryToEmbed } = await import("./query-faults.mjs");
  const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL });
  const cohere = new CohereClient({ token: process.env.COHERE_API_KEY, environment: process.env.COHERE_BASE_URL });
  const tracer = trace.getTracer("support-bot");

  const indexed = await openai.embeddings.create({
    model: "text-embedding-3-small",
    input: plan.passages.map((p) => p.text),
  });
  const store = plan.passages.map((p, i) => ({ text: p.text, vector: indexed.data[i].embedding }));

  async function answer(q) {
    return tracer.startActiveSpan("POST /ask", async (request) => {
      try {
        const rewritten = await openai.chat.completions.create({
          model: "gpt-4o-mini",
          temperature: 0,
          messages: [{ role: "system", content: REWRITE }, { role: "user", content: q.question }],
        });
        const rewrite = rewritten.choices[0].message.content.trim();
        const embedded = queryToEmbed(rewrite, q.question, q.embedFault);
        const query = (await openai.embeddings.create({ model: "text-embedding-3-small", input: embedded }))
          .data[0].embedding;
        const nearest = store
          .map((p) => ({ text: p.text, score: cosine(query, p.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 6);
        const reranked = await cohere.rerank({
          model: "rerank-english-v3.0",
          query: rewrite,
          documents: nearest.map((p) => p.text),
          topN: 3,
        });
        const kept = reranked.results.map((r) => nearest[r.index].text);
        const { context, fates } = contextOf(kept, q.contextBudget);
        const reply = await openai.chat.completions.create({
          model: "gpt-4o-mini",
          temperature: 0,
          messages: [
            { role: "system", content: ANSWER },
            { role: "user", content: `Context:\n${context}\n\nQuestion: ${q.question}` },
          ],
        });
        return { id: q.id, rewrite, embedded, fates, answer: reply.choices[0].message.content };
      } finally {
        request.end();
      }
    });
  }

  await askAll(plan, answer);
  await provider.shutdown();
}

function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

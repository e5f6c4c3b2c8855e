// How a RAG client's own code gets the query it embeds wrong (or, for "prefix", merely different), shared by the
// clients raglog's tests run:
//   none      the query is embedded as it is
//   prefix    BGE's instruction before the query, as such models are queried (healthy: no fault)
//   truncate  the query cut at a character budget before embedding
//   typo      keyboard-neighbour slips in the query's longest plain word (a slip in "doesn't" harms no search)
//   history   the condense-question prompt embedded as it was filled in, chat history and all (the wrong field)

const KEYBOARD = {
  a: "s", b: "v", c: "x", d: "s", e: "r", f: "g", g: "h", h: "j", i: "o", j: "k", k: "l", l: "k", m: "n",
  n: "m", o: "p", p: "o", q: "w", r: "t", s: "a", t: "y", u: "i", v: "b", w: "e", x: "z", y: "t", z: "x",
};

/** The text the client sends for embedding, given the query it meant to embed and the user's question. */
export function queryToEmbed(query, question, fault) {
  switch (fault) {
    case "prefix":
      return "Represent this sentence for searching relevant passages: " + query;
    case "truncate":
      return query.slice(0, Math.max(12, Math.floor(query.length * 0.45)));
    case "typo": {
      const words = query.split(" ");
      let longest = 0;
      words.forEach((w, i) => { if (/^[A-Za-z]+$/.test(w) && w.length > words[longest].length) longest = i; });
      const w = words[longest];
      const at = Math.floor(w.length / 2);
      const swap = KEYBOARD[w[at].toLowerCase()] ?? w[at];
      words[longest] = w.slice(0, at) + swap + w.slice(at + 1, w.length - 1);
      return words.join(" ");
    }
    case "history":
      return "Chat History:\nHuman: Hello, I have a few questions for you.\nAssistant: Of course, ask away."
        + "\nFollow Up Input: " + question + "\nStandalone question:";
    default:
      return query;
  }
}

/** Runs answer(question) for every question of the plan, a few at a time as concurrent users ask. */
export async function askAll(plan, answer) {
  const queue = [...plan.questions];
  async function worker() {
    for (let q = queue.shift(); q; q = queue.shift()) {
      console.log(JSON.stringify(await answer(q)));
    }
  }
  await Promise.all(Array.from({ length: plan.concurrency ?? 4 }, worker));
}

/**
 * The context a client's prompt gets from the passages the reranker kept: numbered, best first, and, when the
 * question has a budget (characters), cut where the budget ends, as a team's own truncation does: the passage that
 * overflows keeps what fits when that is 60 characters or more, and the rest are left out. Also each passage's fate,
 * in the reranker's order: "whole", "cut" or "dropped".
 */
export function contextOf(texts, budget) {
  const parts = [];
  const fates = [];
  let left = budget ?? Infinity;
  texts.forEach((text, i) => {
    const numbered = `[${i + 1}] ${text}`;
    if (numbered.length <= left) {
      parts.push(numbered);
      fates.push("whole");
      left -= numbered.length + 2;
    } else if (left >= 60) {
      parts.push(numbered.slice(0, left));
      fates.push("cut");
      left = 0;
    } else {
      fates.push("dropped");
      left = 0;
    }
  });
  return { context: parts.join("\n\n"), fates };
}

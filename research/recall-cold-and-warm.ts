// Where a recall's time goes on a large store once its terms are read: the bench scale
// queries through RaMem recall alone, twice in one process. The first pass reads each
// new term's postings (lexical-index.ts) on first use; the second finds them loaded.
// Per pass, p50 / p95 of the whole recall and of each stage (recall-pipeline.ts onStageTimes).
// Usage: node --import tsx research/recall-cold-and-warm.ts <the bench's 1M SQLite store> [units=1000000]
import { openMemory } from "../src/open-memory.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { runRecall, RAMEM } from "../src/retrieval/recall-pipeline.js";
import { loadavg } from "node:os";
if (!process.argv[2]) throw new Error("usage: recall-cold-and-warm.ts <store file> [units]");
const db = process.argv[2];
// The bench's own queries: its generator with its defaults (seed 42, one namespace, 100 queries after 10 warm-up ones).
const corpus = generateConversations({ seed: 42, turns: Number(process.argv[3] ?? 1_000_000), namespaces: 1, queries: 110 });
const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
const vectors = await memory.embedder.embed(corpus.queries.map((q) => q.question));
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(2);
for (const pass of ["cold", "warm"]) {
  const stages: Record<string, number[]> = { total: [], content: [], induction: [], reinstatement: [] };
  for (const [i, g] of corpus.queries.entries()) {
    const t = performance.now();
    await runRecall(memory, { namespace: g.namespace, query: g.question, k: 10, queryVector: vectors[i]!, questionDate: g.questionDate, switches: RAMEM, onStageTimes: (s) => { stages.content!.push(s.content); stages.induction!.push(s.induction); stages.reinstatement!.push(s.reinstatement); } });
    if (pass === "warm" || i >= 10) stages.total!.push(performance.now() - t);
  }
  console.log(pass, Object.entries(stages).map(([k, xs]) => `${k} p50 ${q(xs, 0.5)} p95 ${q(xs, 0.95)}`).join(" | "), `load ${loadavg()[0]!.toFixed(2)}`);
}
await memory.close();

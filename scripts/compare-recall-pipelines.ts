/**
 * Two versions of the recall pipeline on one store, interleaved per query in
 * one process (the machine is shared: only the ratio in one run means much),
 * with the same query vectors; prints p50 / p95 of each and how many queries
 * got the same top-10 units. The other version is another checkout's
 * src/retrieval/recall-pipeline.ts (a git worktree of the older commit).
 *
 *   node --import tsx scripts/compare-recall-pipelines.ts --other ../old/src/retrieval/recall-pipeline.ts \
 *     --store .ramem-cache/scale-42-100000-1-<anchorer>-hash-bow_1_256.db --units 100000 [--queries 110]
 *
 * The store is a `ramem bench scale` cache (seed 42, one namespace, hash
 * vectors), so the generator gives back its queries. Work on a copy: opening
 * it with this checkout's code may migrate it.
 */
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";

const { values } = parseArgs({ options: { other: { type: "string" }, store: { type: "string" }, units: { type: "string", default: "100000" }, queries: { type: "string", default: "110" }, warmup: { type: "string", default: "10" } } });
if (!values.other || !values.store) throw new Error("--other <recall-pipeline.ts of another checkout> and --store <scale cache .db> are required");
const other = (await import(resolve(values.other))) as { runRecall: typeof runRecall };
const store = await openSqliteStore(values.store);
const embedder = createHashEmbedder(256);
const corpus = generateConversations({ seed: 42, turns: Number(values.units), namespaces: 1, queries: Number(values.queries) });
const vectors = await embedder.embed(corpus.queries.map((q) => q.question));
const warmup = Number(values.warmup);
const times: Record<"this" | "other", number[]> = { this: [], other: [] };
const load = [loadavg()[0]!];
let same = 0;
for (const [i, q] of corpus.queries.entries()) {
  const request = { namespace: q.namespace, query: q.question, k: 10, queryVector: vectors[i]! };
  const order: Array<["this" | "other", typeof runRecall]> = i % 2 ? [["this", runRecall], ["other", other.runRecall]] : [["other", other.runRecall], ["this", runRecall]];
  const top: Record<string, string> = {};
  for (const [name, recall] of order) {
    const started = performance.now();
    const { hits } = await recall({ store, embedder }, request);
    if (i >= warmup) times[name].push(performance.now() - started);
    top[name] = hits.map((h) => h.unit.id).join(",");
  }
  if (top.this === top.other) same++;
}
load.push(loadavg()[0]!);
const at = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)]!;
for (const name of ["other", "this"] as const) console.log(`${name}: p50 ${at(times[name], 0.5).toFixed(1)} ms, p95 ${at(times[name], 0.95).toFixed(1)} ms (${times[name].length} queries)`);
console.log(`same top-10: ${same} of ${corpus.queries.length}; load average ${load.map((l) => l.toFixed(1)).join(" → ")}`);
await store.close();

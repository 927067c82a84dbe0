/**
 * Two versions of the recall pipeline on one store, interleaved per query in
 * one process (the machine is shared: only the ratio in one run means much),
 * with the same query vectors, beside the exact brute-force floor; prints
 * p50 / p95 of each and how many queries got the same top-10 units. The other
 * version is another checkout's src/retrieval/recall-pipeline.ts (a git
 * worktree of the older commit).
 *
 *   node --import tsx research/compare-recall-pipelines.ts --other ../old/src/retrieval/recall-pipeline.ts \
 *     --store .ramem-cache/scale-42-100000-1-<anchorer>-hash-bow_1_256.db --units 100000 [--queries 110]
 *
 * A change to the store's code is compared the same way, each version on its
 * own copy of the file: `--other-store-code ../old/src/store/sqlite/sqlite-store.ts
 * --other-store <second copy>` opens the other copy with the other checkout's
 * store, and the other pipeline reads that one.
 *
 * The store is a `ramem bench scale` cache (seed 42, one namespace, hash
 * vectors), so the generator gives back its queries (with their question
 * dates, as the bench asks them). Work on copies: opening one with this
 * checkout's code may migrate it.
 */
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { bruteForceTopK, loadNamespaceVectors } from "../src/bench/scale/brute-force.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";

const { values } = parseArgs({
  options: {
    other: { type: "string" },
    store: { type: "string" },
    "other-store-code": { type: "string" },
    "other-store": { type: "string" },
    units: { type: "string", default: "100000" },
    queries: { type: "string", default: "110" },
    warmup: { type: "string", default: "10" },
  },
});
if (!values.other || !values.store) throw new Error("--other <recall-pipeline.ts of another checkout> and --store <scale cache .db> are required");
if (Boolean(values["other-store-code"]) !== Boolean(values["other-store"])) throw new Error("--other-store-code and --other-store go together");
const other = (await import(resolve(values.other))) as { runRecall: typeof runRecall };
const store = await openSqliteStore(values.store);
const otherStore = values["other-store-code"]
  ? await ((await import(resolve(values["other-store-code"]))) as { openSqliteStore: typeof openSqliteStore }).openSqliteStore(values["other-store"]!)
  : store;
const embedder = createHashEmbedder(256);
const corpus = generateConversations({ seed: 42, turns: Number(values.units), namespaces: 1, queries: Number(values.queries) });
const vectors = await embedder.embed(corpus.queries.map((q) => q.question));
const floor = await loadNamespaceVectors(store, corpus.queries[0]!.namespace);
const warmup = Number(values.warmup);
const times: Record<"this" | "other" | "bruteForce", number[]> = { this: [], other: [], bruteForce: [] };
const load = [loadavg()[0]!];
let same = 0;
for (const [i, q] of corpus.queries.entries()) {
  const request = { namespace: q.namespace, query: q.question, k: 10, queryVector: vectors[i]!, questionDate: q.questionDate };
  const runs: Array<["this" | "other", () => ReturnType<typeof runRecall>]> = [
    ["other", () => other.runRecall({ store: otherStore, embedder }, request)],
    ["this", () => runRecall({ store, embedder }, request)],
  ];
  if (i % 2) runs.reverse();
  const top: Record<string, string> = {};
  for (const [name, recall] of runs) {
    const started = performance.now();
    const { hits } = await recall();
    if (i >= warmup) times[name].push(performance.now() - started);
    top[name] = hits.map((h) => h.unit.id).join(",");
  }
  const started = performance.now();
  bruteForceTopK(floor, vectors[i]!, 100);
  if (i >= warmup) times.bruteForce.push(performance.now() - started);
  if (top.this === top.other) same++;
}
load.push(loadavg()[0]!);
const at = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)]!;
for (const name of ["other", "this", "bruteForce"] as const) console.log(`${name}: p50 ${at(times[name], 0.5).toFixed(1)} ms, p95 ${at(times[name], 0.95).toFixed(1)} ms (${times[name].length} queries)`);
console.log(`same top-10: ${same} of ${corpus.queries.length}; load average ${load.map((l) => l.toFixed(1)).join(" → ")}`);
await store.close();
if (otherStore !== store) await otherStore.close();

// Where a RaMem recall's time goes on a scale-bench store: every store call inside runRecall timed by method, over
// the bench's own queries (the generated corpus' seed 42, the same order), after the bench has built the store
// (`ramem bench scale --units <n> --embedder hash --store <url or file>`). Prints, per recall, how often each store
// method is called and its mean and p50 time, beside the recall's own p50; calls inside one recall may overlap
// (the lexical and dense channels run side by side), so the methods' times need not sum to the recall's.
// Usage: node --import tsx research/store-calls-at-scale.ts --store '<url>?schema=<schema>' --units 1000000 [--queries 100] [--warmup 10]
import { parseArgs } from "node:util";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { openStore } from "../src/store/open-store.js";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { Memory } from "../src/memory.js";
import { DEFAULT_POOL, RAMEM, runRecall } from "../src/retrieval/recall-pipeline.js";
import type { MemoryStore } from "../src/store/contract.js";
import { summarize } from "../src/bench/latency/measure-recall-latency.js";

const { values } = parseArgs({ options: { store: { type: "string" }, units: { type: "string" }, queries: { type: "string", default: "100" }, warmup: { type: "string", default: "10" } } });
if (!values.store || !values.units) throw new Error("--store and --units are required");
const queries = Number(values.queries), warmup = Number(values.warmup);
const corpus = generateConversations({ seed: 42, turns: Number(values.units), namespaces: 1, queries: queries + warmup });
const store = await openStore(values.store);
const calls = new Map<string, number[]>();
let recording = false;
// Every async method of the store, timed while a measured recall runs.
const timed = new Proxy(store, {
  get(target, name, receiver) {
    const value = Reflect.get(target, name, receiver) as unknown;
    if (typeof value !== "function" || typeof name !== "string") return value;
    return (...args: unknown[]) => {
      const started = performance.now();
      const out = (value as (...a: unknown[]) => unknown).apply(target, args);
      if (recording && out instanceof Promise) {
        return out.finally(() => {
          const list = calls.get(name) ?? [];
          list.push(performance.now() - started);
          calls.set(name, list);
        });
      }
      return out;
    };
  },
}) as MemoryStore;
const embedder = createHashEmbedder();
const memory = new Memory({ store: timed, embedder, anchorer: createRuleAnchorer() });
const vectors = await embedder.embed(corpus.queries.map((q) => q.question));
const totals: number[] = [];
for (const [i, q] of corpus.queries.entries()) {
  recording = i >= warmup;
  const started = performance.now();
  await runRecall(memory, { namespace: q.namespace, query: q.question, k: 10, pool: DEFAULT_POOL, queryVector: vectors[i]!, questionDate: q.questionDate, switches: RAMEM });
  if (recording) totals.push(performance.now() - started);
}
// The bench's own percentiles (summarize), so these read beside `bench scale`'s figures.
const recall = summarize(totals);
console.log(`${recall.n} recalls, p50 ${recall.p50.toFixed(1)} ms, mean ${recall.mean.toFixed(1)} ms`);
const byMethod = [...calls].map(([name, list]) => ({ name, calls: list.length, s: summarize(list) }));
for (const m of byMethod.sort((a, b) => b.s.mean * b.calls - a.s.mean * a.calls))
  console.log(`${m.name.padEnd(28)} ${(m.calls / recall.n).toFixed(2)} calls/recall, ${((m.s.mean * m.calls) / recall.n).toFixed(1)} ms/recall, p50 ${m.s.p50.toFixed(1)} ms/call`);
await store.close();

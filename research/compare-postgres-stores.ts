/**
 * Two versions of the PostgreSQL store under this checkout's recall pipeline,
 * interleaved per query in one process (the machine is shared: only the
 * ratio in one run means much): full RaMem recall, content-only, and each
 * store's searchLexical and searchDense alone, p50 / p95 of each side, with
 * the 1-minute load average before and after. The old side is another
 * checkout's src/store/postgres/postgres-store.ts on its own schema (an older
 * schema version, which this checkout would migrate), holding the same units,
 * e.g. copied with research/compare-store-writes.ts.
 *
 *   node --import tsx research/compare-postgres-stores.ts --old /tmp/baseline \
 *     --url postgres://ramem:ramem@127.0.0.1:54329/ramem_test --old-schema scale_… --new-schema pg15_100k [--units 100000] [--queries 60]
 *
 * The stores hold a `ramem bench scale` corpus (seed 42, one namespace, hash
 * vectors), so the generator gives back its queries.
 */
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import type { MemoryStore } from "../src/store/contract.js";
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { lexicalTerms } from "../src/language/text.js";
import { CONTENT_ONLY, DEFAULT_POOL, RAMEM, runRecall } from "../src/retrieval/recall-pipeline.js";

const { values } = parseArgs({
  options: {
    old: { type: "string" },
    url: { type: "string" },
    "old-schema": { type: "string" },
    "new-schema": { type: "string" },
    units: { type: "string", default: "100000" },
    queries: { type: "string", default: "60" },
    warmup: { type: "string", default: "10" },
  },
});
if (!values.old || !values.url || !values["old-schema"] || !values["new-schema"]) throw new Error("--old <checkout>, --url, --old-schema and --new-schema are required");
const oldModule = (await import(pathToFileURL(join(resolve(values.old), "src/store/postgres/postgres-store.ts")).href)) as { openPostgresStore: typeof openPostgresStore };
const sides: Record<"old" | "new", MemoryStore> = {
  old: await oldModule.openPostgresStore(values.url, { schema: values["old-schema"] }),
  new: await openPostgresStore(values.url, { schema: values["new-schema"] }),
};
const embedder = createHashEmbedder(256);
const warmup = Number(values.warmup);
const corpus = generateConversations({ seed: 42, turns: Number(values.units), namespaces: 1, queries: Number(values.queries) + warmup });
const vectors = await embedder.embed(corpus.queries.map((q) => q.question));
const ops = ["ramem", "contentOnly", "lexical", "dense"] as const;
const times = Object.fromEntries((["old", "new"] as const).map((s) => [s, Object.fromEntries(ops.map((o) => [o, [] as number[]]))])) as Record<"old" | "new", Record<(typeof ops)[number], number[]>>;
const before = loadavg()[0]!;
try {
  for (const [i, q] of corpus.queries.entries()) {
    const vector = vectors[i]!;
    const request = { namespace: q.namespace, query: q.question, k: 10, pool: DEFAULT_POOL, queryVector: vector, questionDate: q.questionDate };
    for (const [j, op] of ops.entries()) {
      // Alternate which side goes first, per query and operation.
      for (const side of (i + j) % 2 ? (["old", "new"] as const) : (["new", "old"] as const)) {
        const store = sides[side];
        const started = performance.now();
        if (op === "ramem") await runRecall({ store, embedder }, { ...request, switches: RAMEM });
        else if (op === "contentOnly") await runRecall({ store, embedder }, { ...request, switches: CONTENT_ONLY });
        else if (op === "lexical") await store.searchLexical(q.namespace, lexicalTerms(q.question), DEFAULT_POOL);
        else await store.searchDense(q.namespace, vector, DEFAULT_POOL);
        if (i >= warmup) times[side][op].push(performance.now() - started);
      }
    }
    process.stderr.write(`\r${i + 1}/${corpus.queries.length} queries`);
  }
} finally {
  await sides.old.close();
  await sides.new.close();
}
const quantile = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))]!;
const figure = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
console.log(`\nms p50 / p95, ${times.new.ramem.length} queries, load ${before.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`);
for (const op of ops) console.log(`${op.padEnd(12)} old ${figure(times.old[op]).padEnd(16)} new ${figure(times.new[op]).padEnd(16)} old/new p50 ${(quantile(times.old[op], 0.5) / quantile(times.new[op], 0.5)).toFixed(2)}`);

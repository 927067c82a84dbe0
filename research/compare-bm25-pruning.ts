/**
 * The PostgreSQL BM25 lexical search, pruned (all terms first, or MaxScore),
 * against the complete statement (every posting summed), interleaved per
 * query on one store: the ids and scores of both (they must be equal, to the bit, for every query and
 * limit), p50 / p95 of each, and the 1-minute load average before and after.
 *
 *   node --import tsx research/compare-bm25-pruning.ts \
 *     --url 'postgres://ramem:ramem@127.0.0.1:54329/ramem_test?schema=…' [--units 100000] [--queries 100] [--limits 100,10] [--pruning all-terms|max-score]
 *
 * The store holds a `ramem bench scale` corpus (seed 42, one namespace), so
 * the generator gives back its queries, split into words as the recall does.
 * The store must be at schema 8 (opening it migrates an older one).
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { createBm25Lexical } from "../src/store/postgres/lexical/bm25-lexical.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
import { lexicalTerms } from "../src/language/text.js";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    units: { type: "string", default: "100000" },
    queries: { type: "string", default: "100" },
    warmup: { type: "string", default: "10" },
    limits: { type: "string", default: "100,10" },
    pruning: { type: "string", default: "all-terms" },
  },
});
const pruning = values.pruning as "all-terms" | "max-score";
if (pruning !== "all-terms" && pruning !== "max-score") throw new Error("--pruning all-terms|max-score");
/** Which statement answered each pruned-side search. */
const paths: Record<string, number> = {};
if (!values.url) throw new Error("--url postgres://…?schema=… is required");
/** Postings MaxScore read, against those the complete statement sums, over the searches MaxScore answered. */
const postings = { read: 0, all: 0, searches: 0 };
const sides = {
  complete: await openPostgresStore(values.url, { lexical: createBm25Lexical({ pruning: "none" }), maxConnections: 1 }),
  pruned: await openPostgresStore(values.url, {
    lexical: createBm25Lexical({
      pruning,
      onSearch: (info) => {
        paths[info.path] = (paths[info.path] ?? 0) + 1;
        if (info.postingsRead !== undefined) (postings.read += info.postingsRead), (postings.all += info.postingsAll ?? 0), postings.searches++;
      },
    }),
    maxConnections: 1,
  }),
};
const names = ["complete", "pruned"] as const;
const limits = values.limits.split(",").map(Number);
const warmup = Number(values.warmup);
const corpus = generateConversations({ seed: 42, turns: Number(values.units), namespaces: 1, queries: Number(values.queries) + warmup });
const times = Object.fromEntries(limits.map((l) => [l, { complete: [] as number[], pruned: [] as number[] }])) as Record<number, Record<(typeof names)[number], number[]>>;
let compared = 0;
const differences: string[] = [];
const before = loadavg()[0]!;
try {
  for (const [i, q] of corpus.queries.entries()) {
    const words = lexicalTerms(q.question);
    for (const [j, limit] of limits.entries()) {
      const got = {} as Record<(typeof names)[number], Array<{ id: string; score: number }>>;
      // Alternate which side goes first, per query and limit.
      for (const side of (i + j) % 2 ? names : ([...names].reverse() as typeof names[number][])) {
        const started = performance.now();
        got[side] = await sides[side].searchLexical(q.namespace, words, limit);
        if (i >= warmup) times[limit]![side].push(performance.now() - started);
      }
      compared++;
      const a = got.complete.map((h) => `${h.id}=${h.score}`).join(" ");
      const b = got.pruned.map((h) => `${h.id}=${h.score}`).join(" ");
      if (a !== b) differences.push(`${JSON.stringify(words)} limit ${limit}: ${got.complete.length} vs ${got.pruned.length} hits`);
    }
    process.stderr.write(`\r${i + 1}/${corpus.queries.length} queries`);
  }
} finally {
  await sides.complete.close();
  await sides.pruned.close();
}
const quantile = (xs: number[], f: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * f))]!;
const figure = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
console.log(`\nms p50 / p95, ${corpus.queries.length - warmup} queries (${warmup} warm-up), load ${before.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`);
for (const limit of limits) {
  const t = times[limit]!;
  console.log(`limit ${String(limit).padEnd(4)} complete ${figure(t.complete).padEnd(14)} ${pruning} ${figure(t.pruned).padEnd(14)} complete/${pruning} p50 ${(quantile(t.complete, 0.5) / quantile(t.pruned, 0.5)).toFixed(2)}`);
}
console.log(`answered by: ${Object.entries(paths).map(([k, v]) => `${k} ${v}`).join(", ")}`);
if (postings.searches) console.log(`MaxScore answered ${postings.searches} searches, reading ${postings.read} of their ${postings.all} postings (${((100 * postings.read) / Math.max(1, postings.all)).toFixed(1)} %)`);
console.log(`same ids and scores: ${compared - differences.length} of ${compared} searches`);
for (const d of differences) console.log(`  differs: ${d}`);
if (differences.length) process.exitCode = 1;

/**
 * Do exact duplicate vectors limit hnswlib's recall? Builds two indexes over
 * the first N vectors of a `ramem bench scale` SQLite store (seed 42, one
 * namespace, 256-dim hash vectors), with the store's parameters (M 16,
 * construction ef 100, seed 42): one of every vector, as the store builds
 * it, and one holding each distinct vector once, its group of identical
 * units expanded at search. Prints tie-aware recall@100 against an exact
 * scan of the same vectors (a hit scores at least the 100th exact score, as
 * in bench scale) and the search time, per ef.
 *
 * The queries are the bench's for a corpus of <units> (the store's own size,
 * or another's: docs/experiments.md used the 1M corpus's on a 100k store).
 *
 * RAMEM_M (default 16) and RAMEM_EFC (default 100) set the graph's degree and
 * construction ef; RAMEM_PLAIN_ONLY=1 skips the distinct-once index, RAMEM_DISTINCT_ONLY=1 the plain one;
 * RAMEM_PER_QUERY=1 prints each query found short, with its 100th exact score.
 *
 *   [RAMEM_SEEDS=42,7] [RAMEM_M=32] node --max-old-space-size=12000 --import tsx research/compare-hnsw-duplicates.ts <store.db> <units> <N> [800,1600]
 */
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import hnswlib from "hnswlib-node";
import { loadavg } from "node:os";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
const [dbPath, units, N] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const efs = (process.argv[5] ?? "800").split(",").map(Number);
const db = new Database(dbPath, { readonly: true }); sqliteVec.load(db);
const d = 256;
const data = new Float32Array(N * d); let n = 0;
for (const r of db.prepare("SELECT v.embedding AS e FROM vec v LIMIT ?").iterate(N) as Iterable<{ e: Buffer }>) { data.set(new Float32Array(r.e.buffer.slice(r.e.byteOffset, r.e.byteOffset + d * 4)), n * d); n++; }
const groupOf = new Map<string, number[]>(); const rep: number[] = [];
for (let i = 0; i < n; i++) { const key = Buffer.from(data.buffer, i * d * 4, d * 4).toString("base64"); let g = groupOf.get(key); if (!g) { g = []; groupOf.set(key, g); rep.push(i); } g.push(i); }
const members = new Map<number, number>(); for (const g of groupOf.values()) members.set(g[0]!, g.length);
const sizes = [...groupOf.values()].map((g) => g.length).sort((a, b) => b - a);
console.log(`${n} vectors, ${groupOf.size} distinct; largest groups ${sizes.slice(0, 5).join(", ")}; in groups of 2+: ${sizes.filter((s) => s > 1).reduce((a, b) => a + b, 0)}`);
const corpus = generateConversations({ seed: 42, turns: units, namespaces: 1, queries: 110 });
const qv = await createHashEmbedder(256).embed(corpus.queries.slice(10).map((q) => q.question));
const norms = new Float32Array(n); for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < d; j++) s += data[i * d + j]! ** 2; norms[i] = Math.sqrt(s) || 1; }
const kth = qv.map((q) => { let qn = 0; for (let j = 0; j < d; j++) qn += q[j]! ** 2; qn = Math.sqrt(qn) || 1; const sims = new Float32Array(n); for (let i = 0; i < n; i++) { let dot = 0; const o = i * d; for (let j = 0; j < d; j++) dot += data[o + j]! * q[j]!; sims[i] = dot / (norms[i]! * qn); } return sims.sort().reverse()[99]!; });
console.log(`exact done, load ${loadavg()[0]!.toFixed(1)}`);
const build = (ids: number[], seed: number) => { const index = new hnswlib.HierarchicalNSW("cosine", d); index.initIndex({ maxElements: ids.length, m: Number(process.env.RAMEM_M ?? 16), efConstruction: Number(process.env.RAMEM_EFC ?? 100), randomSeed: seed }); const t = performance.now(); for (const i of ids) index.addPoint(Array.from(data.subarray(i * d, i * d + d)), i); console.log(`  built ${ids.length} in ${((performance.now() - t) / 1000).toFixed(0)} s`); return index; };
const measure = (label: string, index: hnswlib.HierarchicalNSW, expand: boolean) => { for (const ef of efs) { index.setEf(ef); let hit = 0; const t: number[] = []; const perQuery: string[] = []; qv.forEach((q, qi) => { const s = performance.now(); const r = index.searchKnn(Array.from(q), 100); t.push(performance.now() - s); let taken = 0; const before = hit; r.neighbors.forEach((id, j) => { const count = expand ? members.get(id)! : 1; const use = Math.min(count, 100 - taken); if (use <= 0) return; taken += use; if (1 - r.distances[j]! >= kth[qi]! - 1e-5) hit += use; }); if (hit - before < 100) perQuery.push(`q${qi} ${hit - before} (100th exact ${kth[qi]!.toFixed(3)})`); }); if (process.env.RAMEM_PER_QUERY === "1") console.log(`  short queries: ${perQuery.join("; ")}`); t.sort((a, b) => a - b); console.log(`${label} ef ${ef}: recall@100 ${(hit / (100 * qv.length)).toFixed(3)}, p50 ${t[t.length >> 1]!.toFixed(2)} ms, load ${loadavg()[0]!.toFixed(1)}`); } };
// One build says little on such data: each seed (RAMEM_SEEDS, default 42) builds both.
for (const seed of (process.env.RAMEM_SEEDS ?? "42").split(",").map(Number)) {
  if (process.env.RAMEM_PLAIN_ONLY !== "1") measure(`seed ${seed} distinct-once`, build(rep, seed), true);
  if (process.env.RAMEM_DISTINCT_ONLY !== "1") measure(`seed ${seed} plain`, build([...Array(n).keys()], seed), false);
}

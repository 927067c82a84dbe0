/**
 * Recall@100 of a SQLite store's HNSW index (the file `ramem reindex` or the
 * scale bench wrote beside it) against an exact search over all of its
 * vectors, at several search ef, with each ef's query time: whether more
 * search effort or a better graph is what a recall figure needs. The store is
 * a `ramem bench scale` cache (seed 42, one namespace, 256-dim hash vectors),
 * so the generator gives back its queries (the 100 after the 10 warm-up ones).
 *
 *   node --max-old-space-size=12000 --import tsx research/sweep-sqlite-hnsw-ef.ts <store.db> <units> [800,1200,1600]
 */
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import hnswlib from "hnswlib-node";
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { createHashEmbedder } from "../src/providers/hash-embedder.js";
import { generateConversations } from "../src/bench/scale/generate-conversations.js";
const [dbPath, units] = [process.argv[2]!, Number(process.argv[3])];
const efs = (process.argv[4] ?? "800,1200,1600,2400").split(",").map(Number);
const db = new Database(dbPath, { readonly: true });
sqliteVec.load(db);
const rows = db.prepare("SELECT v.rowid AS rowid, v.embedding AS e FROM vec v").all() as Array<{ rowid: number; e: Buffer }>;
const d = 256;
const n = rows.length;
const data = new Float32Array(n * d);
rows.forEach((r, i) => data.set(new Float32Array(r.e.buffer.slice(r.e.byteOffset, r.e.byteOffset + d * 4)), i * d));
console.log(`${n} vectors loaded`);
const annDir = `${dbPath}.ann`; const file = readdirSync(annDir).find((f) => f.endsWith(".hnsw"))!;
const index = new hnswlib.HierarchicalNSW("cosine", d); index.readIndexSync(`${annDir}/${file}`);
const corpus = generateConversations({ seed: 42, turns: units, namespaces: 1, queries: 110 });
const qv = await createHashEmbedder(256).embed(corpus.queries.slice(10).map((q) => q.question));
// Each query's 100th exact similarity: a hit counts when it scores at least that (ties among repeated texts are all correct), as in bench scale.
const kth = qv.map((q) => {
  let qn = 0;
  for (let j = 0; j < d; j++) qn += q[j]! * q[j]!;
  const sims = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let dot = 0;
    let nn = 0;
    const o = i * d;
    for (let j = 0; j < d; j++) {
      dot += data[o + j]! * q[j]!;
      nn += data[o + j]! * data[o + j]!;
    }
    sims[i] = dot / Math.sqrt(nn * qn || 1);
  }
  return sims.sort().reverse()[99]!;
});
console.log(`exact done, load ${loadavg()[0]!.toFixed(1)}`);
for (const ef of efs) {
  index.setEf(ef);
  let hit = 0;
  const t: number[] = [];
  qv.forEach((q, i) => {
    const s = performance.now();
    const r = index.searchKnn(Array.from(q), 100);
    t.push(performance.now() - s);
    hit += Math.min(100, r.distances.filter((dist) => 1 - dist >= kth[i]! - 1e-5).length);
  });
  t.sort((a, b) => a - b);
  console.log(`ef ${ef}: recall@100 ${(hit / (100 * qv.length)).toFixed(3)}, p50 ${t[t.length >> 1]!.toFixed(2)} ms, p95 ${t[Math.floor(t.length * 0.95)]!.toFixed(2)} ms, load ${loadavg()[0]!.toFixed(1)}`);
}

/**
 * Latency check for any store dialect on synthetic data, not a test:
 *   node --import tsx src/bench/timings/store-latency.ts [location=sqlite] [units=6000] [dims=512] [queries=200] [exactMaxUnits]
 * `location` is "sqlite" (a temp file) or a postgres:// URL (a temp schema,
 * dropped afterwards); `exactMaxUnits` sets the postgres dialect's threshold
 * for exact dense search (0: always HNSW). Builds a target namespace of
 * `units` units plus a second namespace of the same size (so the namespace
 * filters do real work), then times lexical and dense searches.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { makeRecord, makeSession, seededVector } from "../../store/testing/make-unit.js";
import type { UnitRecord } from "../../store/contract.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { openPostgresStore } from "../../store/postgres/postgres-store.js";

const [location = "sqlite", ...rest] = process.argv.slice(2);
const [units = 6000, dims = 512, queries = 200, exactMaxUnits] = rest.map(Number);
const PER_SESSION = 20;

// Zipf (s = 1) over 5,000 words, like content words once stop words are gone:
// the commonest term still lands in under a tenth of the units.
const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${"abcdefghij"[i % 10]}`);
const cdf: number[] = [];
// Ranks start at 100: the head of a real Zipf curve is stop words, which callers drop.
vocab.reduce((acc, _, i) => (cdf.push(acc + 1 / (i + 100)), acc + 1 / (i + 100)), 0);
let seed = 42;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const word = () => {
  const x = rnd() * cdf[cdf.length - 1]!;
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo]!;
};
const sentence = (n: number) => Array.from({ length: n }, word).join(" ");

function quantiles(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `p50 ${q(0.5).toFixed(2)} ms  p95 ${q(0.95).toFixed(2)} ms  max ${s[s.length - 1]!.toFixed(2)} ms`;
}

const dir = mkdtempSync(join(tmpdir(), "ramem-bench-"));
try {
  const store = isPostgresUrl(location)
    ? await openPostgresStore(location, {
        schema: `bench_latency_${process.pid}`,
        dropSchemaOnClose: true,
        ...(exactMaxUnits !== undefined ? { exactSearchMaxUnits: exactMaxUnits } : {}),
      })
    : await openSqliteStore(join(dir, "bench.db"));
  console.log(`${store.dialect}: ${store.location}`);
  await store.bindEmbedder("bench@1", dims);
  const t0 = performance.now();
  for (const ns of ["bench-a", "bench-b"]) {
    for (let si = 0; si * PER_SESSION < units; si++) {
      const s = makeSession({ namespace: ns, id: `s${si}`, startTime: new Date(Date.UTC(2023, 0, 1) + si * 86_400_000).toISOString() });
      const recs: UnitRecord[] = [];
      for (let i = 0; i < PER_SESSION && si * PER_SESSION + i < units; i++) {
        recs.push(
          makeRecord(s, i, { content: sentence(25), cue: sentence(8), embedding: seededVector(`${ns}/${si}/${i}`, dims) }),
        );
      }
      await store.replaceSession(s, `h${si}`, recs);
    }
  }
  console.log(`ingest: ${2 * units} units x ${dims} dims in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const lex: number[] = [];
  const dense: number[] = [];
  let lexHits = 0;
  for (let q = 0; q < queries; q++) {
    const terms = Array.from({ length: 4 }, word);
    let t = performance.now();
    lexHits += (await store.searchLexical("bench-a", terms, 50)).length;
    lex.push(performance.now() - t);
    const v = seededVector(`query${q}`, dims);
    t = performance.now();
    await store.searchDense("bench-a", v, 50);
    dense.push(performance.now() - t);
  }
  console.log(`lexical (4 terms, k=50, avg ${(lexHits / queries).toFixed(0)} hits): ${quantiles(lex)}`);
  console.log(`dense   (k=50):                       ${quantiles(dense)}`);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { Anchorer } from "../../anchoring/anchorer.js";
import type { Embedder } from "../../providers/embedder.js";
import type { MemoryStore } from "../../store/contract.js";
import { Memory } from "../../memory.js";
import { lexicalTerms } from "../../language/text.js";
import { CONTENT_ONLY, DEFAULT_POOL, RAMEM, runRecall } from "../../retrieval/recall-pipeline.js";
import { isSqliteMemoryStore, openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { isPostgresMemoryStore, openPostgresStore } from "../../store/postgres/postgres-store.js";
import { parsePostgresUrl } from "../../store/postgres/connection.js";
import type { DenseIndexReport } from "../../store/postgres/dense-index-report.js";
import { bulkLoad } from "../../store/postgres/bulk-load.js";
import { summarize } from "../latency/measure-recall-latency.js";
import type { BenchProgress } from "../bench-progress.js";
import { generateConversations, type GeneratedQuery } from "./generate-conversations.js";
import { bruteForceTopK, loadNamespaceVectors } from "./brute-force.js";

export interface ScaleOptions {
  sizes: readonly number[];
  namespaces: number;
  seed: number;
  queries: number;
  /** Queries run first and not counted. */
  warmup: number;
  k: number;
  cacheDir: string;
  /** A postgres:// URL; default a SQLite file in cacheDir. */
  store?: string;
  embedder: Embedder;
  anchorer: Anchorer;
  /** The real ingest path, timed on this many turns into a throwaway store (0: skipped). */
  useLite?: { embedder: () => Promise<Embedder>; turns: number };
  /** Ingest again even when the cached store holds this size. */
  fresh?: boolean;
  onProgress?: BenchProgress;
}

export interface Quantiles {
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

export interface IngestFigures {
  /** Units written per second of wall time: anchoring, embedding (the bench's embedder) and the store's writes. */
  unitsPerSecond: number;
  seconds: number;
  embedder: string;
  /** The same path with USE-lite, measured on a sample of turns. */
  useLite?: { unitsPerSecond: number; turns: number; units: number };
  /** PostgreSQL: the HNSW index was dropped before the ingest and built in one go after it, in this many of `seconds` (a bulk load). */
  denseIndexBuildSeconds?: number;
  /** What that build did: "created" after the drop; "rebuilt" would mean the index was kept through the writes. */
  denseIndexAction?: DenseIndexReport["action"];
  /** When the store was ingested by an earlier run (the figures are that run's). */
  cachedFrom?: string;
  loadAverage: number[];
}

export interface ScaleSize {
  units: number;
  namespaces: number;
  dialect: string;
  location: string;
  /** Units of the namespace the queries run in. */
  namespaceUnits: number;
  ingest: IngestFigures;
  /** SQLite: the HNSW indexes built (or read from disk and caught up) before the queries; "none" below the index threshold. */
  denseIndex?: { action: string; vectors: number; seconds: number };
  bytesPerUnit: number;
  peakRssMb: number;
  queries: number;
  pool: number;
  k: number;
  /**
   * ramem and contentOnly: interleaved with the channels, each query's terms
   * read from the store by whichever runs first. ramemSecondPass: RaMem again
   * over the same queries afterwards, every term already read (a serving
   * process that has seen them).
   */
  recall: { ramem: Quantiles; contentOnly: Quantiles; ramemSecondPass: Quantiles };
  /** The first query's RaMem recall, not counted: it loads the namespace's indexes (lexical, and dense from disk) into the process. */
  firstRecallMs: number;
  searchLexical: Quantiles;
  searchDense: Quantiles;
  floor: { bruteForce: Quantiles };
  /** Mean share of the exact top-100 (brute force) that searchDense returned. */
  denseRecallAt100: number;
  /** 1, 5 and 15-minute load average at the start and the end of the timed queries. */
  loadAverage: { before: number[]; after: number[] };
}

export interface ScaleResult {
  seed: number;
  embedder: string;
  anchorer: string;
  sizes: ScaleSize[];
}

export const quantiles = (ms: readonly number[]): Quantiles => {
  const s = summarize(ms);
  return { p50Ms: round(s.p50), p95Ms: round(s.p95), meanMs: round(s.mean) };
};
const round = (x: number, digits = 2) => Number(x.toFixed(digits));
const load = () => loadavg().map((x) => round(x));

/**
 * `ramem bench scale`: per size, a seeded corpus ingested once into a store
 * that doubles as the cache, then the same queries through every operation,
 * interleaved per query so that all of them share whatever load the machine
 * has at that moment — content-only and full recall, each channel alone, and
 * the exact brute-force floor the dense channel is checked against.
 */
export async function runScaleBench(options: ScaleOptions): Promise<ScaleResult> {
  mkdirSync(options.cacheDir, { recursive: true });
  const sizes: ScaleSize[] = [];
  for (const units of options.sizes) sizes.push(await runSize(options, units));
  return { seed: options.seed, embedder: options.embedder.id, anchorer: options.anchorer.id, sizes };
}

async function runSize(options: ScaleOptions, units: number): Promise<ScaleSize> {
  const corpus = generateConversations({ seed: options.seed, turns: units, namespaces: options.namespaces, queries: options.queries + options.warmup });
  const key = `scale-${options.seed}-${units}-${options.namespaces}-${options.anchorer.id}-${options.embedder.id}`.replace(/[^A-Za-z0-9._-]+/g, "_");
  const { store, sidecar, fresh, bytes } = await openScaleStore(options, key);
  const memory = new Memory({ store, embedder: options.embedder, anchorer: options.anchorer });
  try {
    let ingest: IngestFigures;
    const cached = !fresh && !options.fresh && existsSync(sidecar) ? (JSON.parse(readFileSync(sidecar, "utf8")) as IngestFigures) : null;
    if (cached) {
      ingest = { ...cached, cachedFrom: cached.cachedFrom ?? sidecar };
    } else {
      if (options.fresh) for (const ns of await store.listNamespaces()) await store.deleteNamespace(ns);
      ingest = await ingestCorpus(memory, corpus, options, units);
      writeFileSync(sidecar, JSON.stringify(ingest, null, 2));
    }
    // SQLite builds a large namespace's HNSW index in its first search
    // otherwise; built here (what `ramem reindex` does), it is timed on its
    // own instead of inside a warm-up query.
    const denseIndex = isSqliteMemoryStore(store)
      ? await store.buildDenseIndexes({ onProgress: (done, total, namespace) => options.onProgress?.(done, total, `scale ${units}: dense index of ${namespace}`, "vectors") })
      : null;
    const target = corpus.namespaces[0]!.namespace;
    const stored = await store.stats();
    const namespaceUnits = (await store.stats(target)).units;
    const measured = await measureQueries(memory, corpus.queries, options);
    return {
      units: stored.units,
      namespaces: options.namespaces,
      dialect: store.dialect,
      location: store.location,
      namespaceUnits,
      ingest,
      ...(denseIndex ? { denseIndex: { action: denseIndex.action, vectors: denseIndex.vectors, seconds: round(denseIndex.seconds, 1) } } : {}),
      bytesPerUnit: Math.round((await bytes()) / Math.max(1, stored.units)),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      ...measured,
    };
  } finally {
    await memory.close();
  }
}

interface ScaleStore {
  store: MemoryStore;
  /** Where the ingest figures of the run that built the store are kept. */
  sidecar: string;
  /** True when the store held nothing before this run. */
  fresh: boolean;
  bytes: () => Promise<number>;
}

async function openScaleStore(options: ScaleOptions, key: string): Promise<ScaleStore> {
  if (options.store && isPostgresUrl(options.store)) {
    const url = options.store;
    const schema = parsePostgresUrl(url).schema ?? `scale_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
    const store = await openPostgresStore(url, { schema });
    const fresh = (await store.stats()).units === 0;
    return { store, sidecar: join(options.cacheDir, `${key}.${schema}.ingest.json`), fresh, bytes: () => postgresSchemaBytes(url, schema) };
  }
  const path = options.store ?? join(options.cacheDir, `${key}.db`);
  const fresh = !existsSync(path);
  const bytes = async () => [path, `${path}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
  return { store: await openSqliteStore(path), sidecar: options.store ? `${path}.ingest.json` : join(options.cacheDir, `${key}.ingest.json`), fresh, bytes };
}

async function ingestCorpus(memory: Memory, corpus: ReturnType<typeof generateConversations>, options: ScaleOptions, units: number): Promise<IngestFigures> {
  const written = await ingestGenerated(memory, corpus, { label: `scale ${units}`, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const figures: IngestFigures = { ...written, embedder: options.embedder.id, loadAverage: load() };
  if (options.useLite && options.useLite.turns > 0) figures.useLite = await ingestWithUseLite(corpus, options.useLite, options);
  return figures;
}

/** Writes a generated corpus (PostgreSQL: as a bulk load, the HNSW index built once at the end and timed with the ingest). */
export async function ingestGenerated(
  memory: Memory,
  corpus: ReturnType<typeof generateConversations>,
  options: { label: string; onProgress?: BenchProgress },
): Promise<{ unitsPerSecond: number; seconds: number; denseIndexBuildSeconds?: number; denseIndexAction?: DenseIndexReport["action"] }> {
  let done = 0;
  const started = performance.now();
  const writeAll = async (beforeFirstWrite?: () => Promise<void>) => {
    // A fresh store: every session is written, so the index goes before the first.
    await beforeFirstWrite?.();
    for (const ns of corpus.namespaces) {
      // Batches of sessions: one ingest call per batch keeps progress lines flowing without changing what is written.
      for (let i = 0; i < ns.sessions.length; i += 50) {
        const batch = ns.sessions.slice(i, i + 50);
        await memory.ingest(batch, {
          onProgress: (p) => options.onProgress?.(done + p.turnsDone, corpus.turns, `${options.label}: ingest ${ns.namespace}`, "turns"),
        });
        done += batch.reduce((n, s) => n + s.turns.length, 0);
      }
    }
  };
  let built: DenseIndexReport | null = null;
  // The build's memory is the store's own choice (what the graph needs, dense-index.ts), as for `ramem ingest --bulk`.
  if (isPostgresMemoryStore(memory.store)) {
    const onProgress = (blocks: number, total: number, phase: string) => total > 0 && options.onProgress?.(blocks, total, `${options.label}: HNSW index, ${phase}`, "blocks");
    built = (await bulkLoad(memory.store, memory.embedder, writeAll, { onProgress })).denseIndex;
  }
  else await writeAll();
  const seconds = (performance.now() - started) / 1000;
  const written = (await memory.store.stats()).units;
  return {
    unitsPerSecond: round(written / seconds, 1),
    seconds: round(seconds, 1),
    ...(built ? { denseIndexBuildSeconds: round(built.seconds, 1), denseIndexAction: built.action } : {}),
  };
}

/** The real offline path (USE-lite embeddings) on the first turns of the corpus, into a throwaway SQLite file; the model loads before the clock starts. */
async function ingestWithUseLite(corpus: ReturnType<typeof generateConversations>, useLite: NonNullable<ScaleOptions["useLite"]>, options: ScaleOptions) {
  const embedder = await useLite.embedder();
  await embedder.embed(["warm up"]);
  const dir = mkdtempSync(join(tmpdir(), "ramem-scale-"));
  const store = await openSqliteStore(join(dir, "use-lite.db"));
  const memory = new Memory({ store, embedder, ownsEmbedder: true, anchorer: options.anchorer });
  try {
    const sample = [];
    let turns = 0;
    for (const s of corpus.namespaces[0]!.sessions) {
      if (turns >= useLite.turns) break;
      sample.push(s);
      turns += s.turns.length;
    }
    const started = performance.now();
    await memory.ingest(sample, { onProgress: (p) => options.onProgress?.(p.turnsDone, turns, "scale: ingest with use-lite", "turns") });
    const seconds = (performance.now() - started) / 1000;
    const units = (await store.stats()).units;
    return { unitsPerSecond: round(units / seconds, 1), turns, units };
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureQueries(memory: Memory, queries: readonly GeneratedQuery[], options: ScaleOptions) {
  const store = memory.store;
  const pool = DEFAULT_POOL;
  const namespace = queries[0]?.namespace ?? "scale-0";
  const vectors = await memory.embedder.embed(queries.map((q) => q.question));
  const floor = await loadNamespaceVectors(store, namespace);
  const times = { ramem: [] as number[], contentOnly: [] as number[], lexical: [] as number[], dense: [] as number[], brute: [] as number[] };
  let overlap = 0;
  let counted = 0;
  let firstRecallMs = 0;
  const before = load();
  const requestOf = (i: number) => ({ namespace, query: queries[i]!.question, k: options.k, pool, queryVector: vectors[i]!, questionDate: queries[i]!.questionDate });
  for (const [i, q] of queries.entries()) {
    const vector = vectors[i]!;
    const request = requestOf(i);
    let dense: Array<{ id: string; score: number }> = [];
    let exact = { ids: [] as string[], kthScore: 0 };
    const ops: Array<[keyof typeof times, () => Promise<unknown>]> = [
      ["ramem", () => runRecall(memory, { ...request, switches: RAMEM })],
      ["contentOnly", () => runRecall(memory, { ...request, switches: CONTENT_ONLY })],
      ["lexical", () => store.searchLexical(namespace, lexicalTerms(q.question), pool)],
      ["dense", async () => (dense = await store.searchDense(namespace, vector, pool))],
      ["brute", async () => (exact = bruteForceTopK(floor, vector, pool))],
    ];
    // Rotated per query: no operation always runs right after the same one.
    for (let j = 0; j < ops.length; j++) {
      const [name, op] = ops[(i + j) % ops.length]!;
      const t = performance.now();
      await op();
      // Query 0 runs RaMem first (the rotation starts at it): the process's first recall.
      if (i === 0 && name === "ramem") firstRecallMs = performance.now() - t;
      if (i >= options.warmup) times[name].push(performance.now() - t);
    }
    if (i >= options.warmup) {
      // A hit is one of the exact top k when it scores at least the k-th exact score (ties among repeated texts are all correct).
      const found = dense.filter((h) => h.score >= exact.kthScore - 1e-5).length;
      overlap += Math.min(found, exact.ids.length) / Math.max(1, exact.ids.length);
      counted++;
    }
    options.onProgress?.(i + 1, queries.length, `scale: ${store.dialect} recall in ${namespace}`, "questions");
  }
  // The same queries through RaMem alone once more: what a process that has read their terms answers in.
  const secondPass: number[] = [];
  for (let i = options.warmup; i < queries.length; i++) {
    const t = performance.now();
    await runRecall(memory, { ...requestOf(i), switches: RAMEM });
    secondPass.push(performance.now() - t);
  }
  return {
    queries: counted,
    pool,
    k: options.k,
    recall: { ramem: quantiles(times.ramem), contentOnly: quantiles(times.contentOnly), ramemSecondPass: quantiles(secondPass) },
    firstRecallMs: round(firstRecallMs),
    searchLexical: quantiles(times.lexical),
    searchDense: quantiles(times.dense),
    floor: { bruteForce: quantiles(times.brute) },
    denseRecallAt100: round(overlap / Math.max(1, counted), 4),
    loadAverage: { before, after: load() },
  };
}

/** The schema's tables with their indexes and TOAST, on disk. */
async function postgresSchemaBytes(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
  await client.connect();
  try {
    const r = await client.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return Number(r.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

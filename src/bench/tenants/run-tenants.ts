import { loadavg } from "node:os";
import { Memory } from "../../memory.js";
import type { Embedder } from "../../providers/embedder.js";
import type { Anchorer } from "../../anchoring/anchorer.js";
import { openPostgresStore } from "../../store/postgres/postgres-store.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { parsePostgresUrl } from "../../store/postgres/connection.js";
import { runRecall, RAMEM } from "../../retrieval/recall-pipeline.js";
import { createThreadPool } from "../../util/thread-pool.js";
import { generateConversations } from "../scale/generate-conversations.js";
import { ingestGenerated, quantiles, type Quantiles } from "../scale/run-scale.js";
import type { BenchProgress } from "../bench-progress.js";

export interface TenantsOptions {
  /** A postgres:// URL (its schema names the shared store; `<schema>_alone` holds the probe tenant alone) or a SQLite file. */
  store: string;
  tenants: number;
  unitsPerTenant: number;
  queries: number;
  warmup: number;
  /** Query rounds of the interference phases: writer off, on, off, on, … */
  phases: number;
  seed: number;
  embedder: Embedder;
  anchorer: Anchorer;
  fresh?: boolean;
  onProgress?: BenchProgress;
}

export interface TenantsResult {
  tenants: number;
  unitsPerTenant: number;
  storedUnits: number;
  ingest: { unitsPerSecond: number; seconds: number } | "cached";
  /** Recall in the probe tenant, interleaved query by query: inside the shared store and in a store that holds it alone. */
  shared: Quantiles;
  alone: Quantiles;
  /** p50 shared / p50 alone (target ≤ 2). */
  sharedOverAlone: number;
  /** Recall in the probe tenant while another tenant's writer (its own thread and connection) ingests, against phases without it. */
  quiet: Quantiles;
  writing: Quantiles;
  /** p50 writing / p50 quiet (target ≤ 1.5). */
  writingOverQuiet: number;
  writerUnitsPerSecond: number;
  loadAverage: { before: number[]; after: number[] };
}

/**
 * Many tenants in one store: `tenants` namespaces of `unitsPerTenant` units
 * (the scale generator's conversations), recall timed in the first against
 * the same tenant in a store of its own, and against itself while a writer
 * ingests into another tenant. The shared store is reused when it already
 * holds the corpus (`fresh` ingests again).
 */
export async function runTenantsBench(options: TenantsOptions): Promise<TenantsResult> {
  const corpus = generateConversations({ seed: options.seed, turns: options.tenants * options.unitsPerTenant, namespaces: options.tenants, queries: options.queries + options.warmup });
  const probe = corpus.namespaces[0]!;
  const shared = await openTenantStore(options.store, "");
  const alone = await openTenantStore(options.store, "_alone");
  const sharedMemory = new Memory({ store: shared, embedder: options.embedder, anchorer: options.anchorer });
  const aloneMemory = new Memory({ store: alone, embedder: options.embedder, anchorer: options.anchorer });
  try {
    let ingest: TenantsResult["ingest"] = "cached";
    const expected = corpus.turns;
    if (options.fresh || (await shared.stats()).units < expected * 0.9) {
      for (const ns of await shared.listNamespaces()) await shared.deleteNamespace(ns);
      const figures = await ingestGenerated(sharedMemory, corpus, { label: `tenants ${options.tenants}x${options.unitsPerTenant}`, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      ingest = { unitsPerSecond: figures.unitsPerSecond, seconds: figures.seconds };
    }
    for (const ns of await alone.listNamespaces()) await alone.deleteNamespace(ns);
    await aloneMemory.ingest(probe.sessions);
    const storedUnits = (await shared.stats()).units;
    const before = loadavg();
    const vectors = await options.embedder.embed(corpus.queries.map((q) => q.question));
    const recallIn = (memory: Memory, i: number) => {
      const q = corpus.queries[i % corpus.queries.length]!;
      return runRecall(memory, { namespace: probe.namespace, query: q.question, k: 10, queryVector: vectors[i % vectors.length]!, questionDate: q.questionDate, switches: RAMEM });
    };
    const timed = async (memory: Memory, i: number) => {
      const t = performance.now();
      await recallIn(memory, i);
      return performance.now() - t;
    };
    // Shared against alone, alternating which goes first.
    const times = { shared: [] as number[], alone: [] as number[] };
    for (let i = 0; i < corpus.queries.length; i++) {
      const order = i % 2 === 0 ? (["shared", "alone"] as const) : (["alone", "shared"] as const);
      for (const which of order) {
        const ms = await timed(which === "shared" ? sharedMemory : aloneMemory, i);
        if (i >= options.warmup) times[which].push(ms);
      }
      options.onProgress?.(i + 1, corpus.queries.length, "tenants: shared against alone", "questions");
    }
    // Quiet and writing phases, alternating; the writer is another thread with its own connection.
    const writer = createThreadPool<{ ms: number }, { units: number; seconds: number }>({
      size: 1,
      worker: new URL("./tenant-writer-worker", import.meta.url),
      workerData: { store: options.store, namespace: `${probe.namespace}-writer`, seed: options.seed + 1000 },
      name: "the tenants bench's writer",
      code: "BENCH_WRITER",
      hint: "see the error above",
      closedHint: "start the bench again",
    });
    const phase = { quiet: [] as number[], writing: [] as number[] };
    let written = 0;
    let writingSeconds = 0;
    try {
      const perPhase = Math.max(5, Math.floor(corpus.queries.length / options.phases));
      for (let p = 0; p < options.phases * 2; p++) {
        const writing = p % 2 === 1;
        let stop = false;
        let runningWriter: Promise<void> | null = null;
        if (writing) {
          // Writes in slices, so the phase's end stops it soon after; the first slice is under way before the clock runs.
          runningWriter = (async () => {
            while (!stop) {
              const r = await writer.run({ ms: 250 });
              written += r.units;
              writingSeconds += r.seconds;
            }
          })();
          await new Promise((r) => setTimeout(r, 300));
        }
        for (let j = 0; j < perPhase; j++) (writing ? phase.writing : phase.quiet).push(await timed(sharedMemory, p * perPhase + j));
        stop = true;
        await runningWriter;
        options.onProgress?.((p + 1) * perPhase, options.phases * 2 * perPhase, "tenants: with and without a writer", "questions");
      }
    } finally {
      await writer.close();
    }
    const q = { shared: quantiles(times.shared), alone: quantiles(times.alone), quiet: quantiles(phase.quiet), writing: quantiles(phase.writing) };
    return {
      tenants: options.tenants,
      unitsPerTenant: options.unitsPerTenant,
      storedUnits,
      ingest,
      ...q,
      sharedOverAlone: round3(q.shared.p50Ms / q.alone.p50Ms),
      writingOverQuiet: round3(q.writing.p50Ms / q.quiet.p50Ms),
      writerUnitsPerSecond: Math.round(written / Math.max(writingSeconds, 1e-9)),
      loadAverage: { before: before.map(round3), after: loadavg().map(round3) },
    };
  } finally {
    await sharedMemory.close();
    await aloneMemory.close();
  }
}

async function openTenantStore(location: string, suffix: string) {
  if (isPostgresUrl(location)) {
    const schema = parsePostgresUrl(location).schema ?? "tenants";
    return openPostgresStore(location, { schema: `${schema}${suffix}` });
  }
  return openSqliteStore(suffix ? location.replace(/(\.db)?$/, `${suffix}.db`) : location);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

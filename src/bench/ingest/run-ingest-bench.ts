import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Anchorer } from "../../anchoring/anchorer.js";
import type { SessionWithTurns } from "../../model/conversation.js";
import type { Embedder } from "../../providers/embedder.js";
import { Memory } from "../../memory.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";

/** What is timed: the rule anchorer alone; anchorer + hash vectors + SQLite (no model); the real path with USE-lite. */
export type IngestVariant = "anchor" | "hash" | "use-lite";
export const INGEST_VARIANTS: readonly IngestVariant[] = ["anchor", "hash", "use-lite"];

export interface IngestBenchOptions {
  datasets: ReadonlyArray<{ name: string; sessions: readonly SessionWithTurns[] }>;
  /** The first sessions of each data set up to this many turns. */
  turns: number;
  variants: readonly IngestVariant[];
  /** The rule anchorer on this many threads (1: in this process); the caller's pool is closed here. */
  anchorer: (threads: number) => Anchorer;
  hashEmbedder: () => Promise<Embedder>;
  /** USE-lite with this many threads (1: in this process). */
  useLite: (threads: number) => Promise<Embedder>;
  /** Thread counts to time the anchorer alone and USE-lite with, e.g. [1, 2]. */
  threads: readonly number[];
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface IngestFigure {
  dataset: string;
  variant: string;
  threads: number | null;
  sessions: number;
  turns: number;
  units: number;
  seconds: number;
  turnsPerSecond: number;
  unitsPerSecond: number;
  /** 1-minute load average before and after the run: the machine is shared. */
  loadAverage: [number, number];
}

/**
 * Ingest throughput on real conversations (targets: the rule anchorer alone
 * ≥ 1,000 units/s; offline ingest with USE-lite ≥ 150 turns/s on LoCoMo and
 * ≥ 40 on the LongMemEval dev split). Each run writes a fresh throwaway
 * SQLite file; a model loads (and warms up) before its clock starts.
 */
export async function runIngestBench(options: IngestBenchOptions): Promise<IngestFigure[]> {
  const figures: IngestFigure[] = [];
  for (const dataset of options.datasets) {
    const sample = firstTurns(dataset.sessions, options.turns);
    const turns = sample.reduce((n, s) => n + s.turns.length, 0);
    const report = (p: { turnsDone: number }, label: string) => options.onProgress?.(p.turnsDone, turns, `${dataset.name}: ${label}`);
    for (const variant of options.variants) {
      if (variant === "anchor") {
        for (const threads of options.threads) {
          const anchorer = options.anchorer(threads);
          const label = threads === 1 ? "rule anchorer alone" : `rule anchorer alone, ${threads} threads`;
          try {
            // The sample once untimed: the first few hundred parses compile compromise's and
            // chrono's code paths (one warm-up session still left it at half the speed
            // of the anchoring inside the hash row that followed it), in every thread.
            await anchorAll(anchorer, sample);
            const before = load();
            const started = performance.now();
            const units = await anchorAll(anchorer, sample, (done) => report({ turnsDone: done }, label));
            figures.push(figure(dataset.name, label, threads, sample.length, turns, units, performance.now() - started, before));
          } finally {
            await anchorer.close?.();
          }
        }
        continue;
      }
      for (const threads of variant === "hash" ? [null] : options.threads) {
        const embedder = threads === null ? await options.hashEmbedder() : await options.useLite(threads);
        // Every thread loads its model before the clock starts.
        await Promise.all(Array.from({ length: threads ?? 1 }, () => embedder.embed(Array.from({ length: 16 }, (_, i) => `warm up ${i}`))));
        const dir = mkdtempSync(join(tmpdir(), "ramem-bench-ingest-"));
        const memory = new Memory({ store: await openSqliteStore(join(dir, "ingest.db")), embedder, ownsEmbedder: true, anchorer: options.anchorer(1) });
        const label = threads === null ? "rule anchorer + hash vectors + SQLite" : `use-lite, ${threads} thread${threads === 1 ? "" : "s"}`;
        try {
          const before = load();
          const started = performance.now();
          const result = await memory.ingest([...sample], { onProgress: (p) => report(p, label) });
          figures.push(figure(dataset.name, label, threads, sample.length, turns, result.unitsWritten, performance.now() - started, before));
        } finally {
          await memory.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  }
  return figures;
}

/** Anchors every session, as many at once as the anchorer runs side by side; returns the units made. */
async function anchorAll(anchorer: Anchorer, sessions: readonly SessionWithTurns[], onTurns?: (done: number) => void): Promise<number> {
  let next = 0;
  let units = 0;
  let done = 0;
  const lane = async () => {
    while (next < sessions.length) {
      const session = sessions[next++]!;
      // Awaited first: `units += await …` would read units before the wait and drop the other lane's count.
      const anchored = await anchorer.anchorSession(session);
      units += anchored.units.length;
      done += session.turns.length;
      onTurns?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, anchorer.concurrency ?? 1) }, lane));
  return units;
}

function firstTurns(sessions: readonly SessionWithTurns[], turns: number): SessionWithTurns[] {
  const out: SessionWithTurns[] = [];
  let n = 0;
  for (const s of sessions) {
    if (n >= turns) break;
    out.push(s);
    n += s.turns.length;
  }
  return out;
}

function figure(dataset: string, variant: string, threads: number | null, sessions: number, turns: number, units: number, ms: number, before: number): IngestFigure {
  const seconds = ms / 1000;
  return {
    dataset,
    variant,
    threads,
    sessions,
    turns,
    units,
    seconds: round(seconds, 2),
    turnsPerSecond: round(turns / seconds, 1),
    unitsPerSecond: round(units / seconds, 1),
    loadAverage: [before, load()],
  };
}

function load(): number {
  return round(loadavg()[0]!, 2);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { RamemError } from "../model/errors.js";
import type { IngestJob, WorkerMessage } from "./ingest-worker.js";

export interface ParallelIngestOptions extends Omit<IngestJob, "conversations"> {
  conversations: IngestJob["conversations"];
  workers: number;
  /** Turns ingested so far (skipped unchanged sessions count as done). */
  onTurns?: (turnsDone: number) => void;
}

export interface ParallelIngestReport {
  workers: number;
  /** Texts the model embedded and texts served from the embedding cache, over all workers. */
  embedded: number;
  cached: number;
}

/**
 * Ingests conversations in worker processes, a share of the conversations
 * each (balanced by turn count, a whole conversation per worker, so no two
 * processes write one namespace). Anchoring and embedding are CPU-bound and
 * single-threaded (each USE-lite session runs on one thread), so processes are what
 * uses every core. The store takes concurrent writers (WAL and a busy
 * timeout in SQLite; transactions in PostgreSQL). A failing worker stops the
 * others and its error is rethrown here.
 */
export async function ingestInParallel(options: ParallelIngestOptions): Promise<ParallelIngestReport> {
  const shares = balance(options.conversations, Math.max(1, options.workers));
  const here = fileURLToPath(import.meta.url);
  // Under tsx the sources run as .ts; the built package runs .js.
  const workerPath = here.replace(/parallel-ingest\.(ts|js)$/, (_m, ext: string) => `ingest-worker.${ext}`);
  let turnsDone = 0;
  const children = shares.map((conversations) => ({
    conversations,
    child: fork(workerPath, [], { execArgv: process.execArgv, serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  }));
  const report: ParallelIngestReport = { workers: children.length, embedded: 0, cached: 0 };
  try {
    await Promise.all(
      children.map(
        ({ child, conversations }) =>
          new Promise<void>((resolve, reject) => {
            let finished = false;
            child.on("message", (m: WorkerMessage) => {
              if (m.type === "ready") return;
              if (m.type === "progress") {
                turnsDone += m.turns;
                options.onTurns?.(turnsDone);
              } else if (m.type === "done") {
                finished = true;
                report.embedded += m.embedded;
                report.cached += m.cached;
              } else {
                finished = true;
                reject(new RamemError(m.code ?? "INGEST_WORKER", m.message, { ...(m.where ? { where: m.where } : {}), ...(m.hint ? { hint: m.hint } : {}) }));
              }
            });
            child.on("error", reject);
            child.on("exit", (code, signal) => {
              if (finished) resolve();
              else reject(new RamemError("INGEST_WORKER", `an ingest worker exited (${signal ?? `code ${code}`}) before it finished`, { hint: "run again: finished sessions are kept and skipped; or pass --workers 1 to ingest in this process" }));
            });
            const job: IngestJob = { embedder: options.embedder, anchorer: options.anchorer, embeddingCache: options.embeddingCache, store: options.store, conversations };
            child.send(job);
          }),
      ),
    );
  } finally {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
  return report;
}

/** Largest first onto the lightest share: shares within one conversation of each other. */
function balance<T extends { sessions: Array<{ turns: unknown[] }> }>(items: readonly T[], n: number): T[][] {
  const weight = (c: T) => c.sessions.reduce((sum, s) => sum + s.turns.length, 0);
  const shares = Array.from({ length: Math.min(n, items.length) }, () => ({ items: [] as T[], weight: 0 }));
  for (const item of [...items].sort((a, b) => weight(b) - weight(a))) {
    const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.items.push(item);
    lightest.weight += weight(item);
  }
  return shares.map((s) => s.items).filter((s) => s.length > 0);
}

import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RamemError } from "../../model/errors.js";
import { isPostgresUrl, openStore } from "../../store/open-store.js";
import { parsePostgresUrl } from "../../store/postgres/connection.js";
import { openPostgresStore } from "../../store/postgres/postgres-store.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { checkOps, type ReliabilityCheck } from "./check-ops.js";
import type { FinalState, OpRecord, ValiditySnapshot } from "./op-log.js";
import type { FromWorker, ReliabilityJob, ToWorker } from "./reliability-worker.js";

export interface ReliabilityOptions {
  /** A SQLite file or a postgres:// URL; undefined: a fresh SQLite file in a temporary folder. */
  store: string | undefined;
  processes: number;
  seconds: number;
  namespaces: number;
  /** Sessions per namespace the workers share. */
  sessions: number;
  seed: number;
  /** Leave the PostgreSQL schema, the temporary SQLite file and the logs in place (their paths are in the result). */
  keep?: boolean;
  /** Seconds of the workload elapsed, about once a second. */
  onProgress?: (elapsed: number, total: number) => void;
}

export interface ReliabilityResult {
  dialect: "sqlite" | "postgres";
  /** Where the run wrote: the file, or the URL (password masked) and its schema. */
  location: string;
  processes: number;
  seconds: number;
  namespaces: string[];
  sessionsPerNamespace: number;
  seed: number;
  /** Operations the workers started, each. */
  operations: number[];
  loadAverage: { before: number; after: number };
  /** The workers' logs and the store, when kept (--keep). */
  kept?: { logs: string; store: string };
  check: ReliabilityCheck;
}

/**
 * The two-process campaign: `processes` workers, each its own process with
 * its own Memory on one store, write a random mix over a few shared sessions
 * for `seconds`, logging every acknowledged call; once all have stopped each
 * writes the validity it sees, a fresh process reads the store, and the
 * checker (check-ops.ts) says which acknowledgements the store broke. The
 * namespaces are new per run (`rel-<run>-<n>`), so a given SQLite file or
 * schema may already hold other data; a PostgreSQL run gets a fresh schema
 * (the URL's ?schema= is replaced), dropped at the end unless kept.
 */
export async function runReliabilityBench(options: ReliabilityOptions): Promise<ReliabilityResult> {
  const run = randomBytes(4).toString("hex");
  const dir = mkdtempSync(join(tmpdir(), "ramem-reliability-"));
  const target = storeTarget(options.store, dir, run);
  const namespaces = Array.from({ length: options.namespaces }, (_, i) => `rel-${run}-${i + 1}`);
  const before = loadavg()[0]!;
  const keepFiles = options.keep === true;
  try {
    // Created (schema, tables) and bound once here, so the workers do not race to make it.
    const hash = createHashEmbedder();
    const setup = await openStore(target.location);
    await setup.bindEmbedder(hash.id, hash.dimensions).finally(() => setup.close());

    const jobs: ReliabilityJob[] = Array.from({ length: options.processes }, (_, worker) => ({
      role: "workload",
      location: target.location,
      plan: { worker, seed: options.seed, namespaces, sessions: options.sessions, logPath: join(dir, `worker-${worker}.jsonl`) },
      snapshotPath: join(dir, `worker-${worker}-validity.json`),
    }));
    // The fresh process is started now and opens the store only after the workload: its start-up (seconds under tsx) overlaps the run.
    const inspector = forkWorker();
    let ticker: NodeJS.Timeout | undefined;
    let operations: number[];
    try {
      operations = await runWorkers(jobs.map(() => forkWorker()), jobs, options.seconds, (started) => {
        if (options.onProgress)
          ticker = setInterval(() => options.onProgress!(Math.min(options.seconds, Math.round((Date.now() - started) / 1000)), options.seconds), 1000);
      });
    } catch (err) {
      inspector.child.kill();
      throw err;
    } finally {
      clearInterval(ticker);
    }
    options.onProgress?.(options.seconds, options.seconds);

    const finalPath = join(dir, "final.json");
    await runWorkers([inspector], [{ role: "inspect", location: target.location, namespaces, outPath: finalPath }], 0);
    const ops: OpRecord[] = jobs.flatMap((j) => (j.role === "workload" ? readLines(j.plan.logPath) : []));
    const views = jobs.map((j, worker) => ({ worker, validity: JSON.parse(readFileSync((j as Extract<ReliabilityJob, { role: "workload" }>).snapshotPath, "utf8")) as ValiditySnapshot }));
    const final = JSON.parse(readFileSync(finalPath, "utf8")) as FinalState;
    const check = checkOps(ops, final, views);
    return {
      dialect: target.dialect,
      location: target.shown,
      processes: options.processes,
      seconds: options.seconds,
      namespaces,
      sessionsPerNamespace: options.sessions,
      seed: options.seed,
      operations,
      loadAverage: { before: round(before), after: round(loadavg()[0]!) },
      ...(keepFiles ? { kept: { logs: dir, store: target.shown } } : {}),
      check,
    };
  } finally {
    if (!keepFiles) {
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

interface StoreTarget {
  dialect: "sqlite" | "postgres";
  location: string;
  shown: string;
  /** Removes what this run created for the store (a fresh schema); a SQLite file the caller named stays. */
  drop: () => Promise<void>;
}

function storeTarget(store: string | undefined, dir: string, run: string): StoreTarget {
  if (store === undefined) {
    const file = join(dir, "store.db");
    return { dialect: "sqlite", location: file, shown: file, drop: async () => {} };
  }
  if (!isPostgresUrl(store)) return { dialect: "sqlite", location: store, shown: store, drop: async () => {} };
  const schema = `reliability_${process.pid}_${run}`;
  const url = new URL(store);
  url.searchParams.set("schema", schema);
  const location = url.toString();
  return {
    dialect: "postgres",
    location,
    shown: `${parsePostgresUrl(store).redacted} schema ${schema}`,
    drop: async () => {
      const handle = await openPostgresStore(location, { schema, dropSchemaOnClose: true, maxConnections: 1 });
      await handle.close();
    },
  };
}

const WORKER_PATH = fileURLToPath(import.meta.url).replace(/run-reliability\.(ts|js)$/, (_m, ext: string) => `reliability-worker.${ext}`);

interface Forked {
  child: ChildProcess;
  /** Its "ready", caught at once: a message sent before anyone listens is gone. */
  ready: Promise<void>;
}

function forkWorker(): Forked {
  // Under tsx the sources run as .ts; the built package runs .js.
  const child = fork(WORKER_PATH, [], { execArgv: process.execArgv, serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ready = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code, signal) => reject(new RamemError("RELIABILITY_WORKER", `a reliability worker exited (${signal ?? `code ${code}`}) before it started`)));
  });
  // Its failure is reported by runWorkers, when the worker is given its job.
  ready.catch(() => {});
  return { child, ready };
}

/**
 * Gives each forked worker its job and sees them through: the workload
 * starts, for `seconds`, when every worker has opened its store, and all
 * workers say they stopped before any is asked for its validity (so each
 * view is taken after the last write of every worker). Resolves with each
 * job's operation count; a failing worker stops the others and its error is
 * thrown here.
 */
async function runWorkers(forked: readonly Forked[], jobs: readonly ReliabilityJob[], seconds: number, onStart?: (at: number) => void): Promise<number[]> {
  const children = forked.map((f) => f.child);
  const operations = jobs.map(() => 0);
  let stopped = 0;
  let opened = 0;
  try {
    await Promise.all(
      forked.map(
        ({ child, ready }, i) =>
          new Promise<void>((resolve, reject) => {
            let finished = false;
            child.on("message", (m: FromWorker) => {
              if (m.type === "opened") {
                if (++opened < jobs.length) return;
                const at = Date.now();
                onStart?.(at);
                for (const c of children) c.send({ type: "start", until: at + seconds * 1000 } satisfies ToWorker);
              } else if (m.type === "stopped") {
                operations[i] = m.operations;
                // The last to stop lets every worker read its view.
                if (++stopped === jobs.length) for (const c of children) c.send({ type: "snapshot" } satisfies ToWorker);
              } else if (m.type === "done") finished = true;
              else if (m.type === "failed") {
                finished = true;
                reject(new RamemError(m.code ?? "RELIABILITY_WORKER", m.message, m.hint ? { hint: m.hint } : {}));
              }
            });
            child.on("error", reject);
            child.on("exit", (code, signal) => {
              if (finished) resolve();
              else reject(new RamemError("RELIABILITY_WORKER", `a reliability worker exited (${signal ?? `code ${code}`}) before it finished`));
            });
            ready.then(() => child.send({ type: "job", job: jobs[i]! } satisfies ToWorker), reject);
          }),
      ),
    );
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
  return operations;
}

function readLines(path: string): OpRecord[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OpRecord);
}

const round = (n: number) => Math.round(n * 100) / 100;

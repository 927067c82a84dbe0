import type pg from "pg";
import { performance } from "node:perf_hooks";
import type { DenseIndexBuildOptions, DenseIndexReport } from "./dense-index-report.js";
import { RamemError } from "../../model/errors.js";
import { describeValue } from "../../model/echo-value.js";

export type { DenseIndexBuildOptions, DenseIndexReport } from "./dense-index-report.js";

/**
 * The HNSW index over every namespace's vectors (cosine), as the first
 * bindEmbedder creates it: the first row of each vector value only (schema
 * 11: copies of one vector sink the graph; a search adds them back).
 */
export const HNSW_INDEX_NAME = "unit_vectors_hnsw";
export const HNSW_INDEX_DEFINITION = `${HNSW_INDEX_NAME} ON unit_vectors USING hnsw (embedding vector_cosine_ops) WHERE NOT repeats`;

/**
 * Builds the HNSW index in one go, without blocking the store: `REINDEX
 * INDEX CONCURRENTLY` when it exists, `CREATE INDEX CONCURRENTLY` when a bulk
 * load dropped it (an invalid index left by an interrupted build is dropped
 * first). Reads and writes go on meanwhile; the new index replaces the old one
 * at the end. An index grown by inserts is a worse graph than one built in one
 * go (README › Numbers: dense recall@100 0.904 as ingested, 0.950 rebuilt at
 * 100k units), and building after a bulk load is cheaper than the per-row
 * inserts (each a graph search and a rewrite of its neighbours' pages).
 *
 * Runs on one pooled client in autocommit (CONCURRENTLY cannot run in a
 * transaction). maintenance_work_mem is set for this session only: pgvector
 * builds much faster while the graph fits in it. `maintenanceWorkMem` (e.g.
 * "1GB") names it; without it the build asks for what the graph needs
 * (buildMemoryMb), never less than the server's setting and never more than
 * AUTO_BUILD_MEMORY_CAP_MB, and the report says when that cap is below the need.
 */
export async function rebuildDenseIndex(pool: pg.Pool, options: DenseIndexBuildOptions = {}): Promise<DenseIndexReport> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ table: string | null; valid: boolean | null }>(
      "SELECT to_regclass('unit_vectors')::text AS table, (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass($1)) AS valid",
      [HNSW_INDEX_NAME],
    );
    const found = rows[0]!;
    if (found.table === null) return { action: "none", vectors: 0, seconds: 0, note: "no vectors yet: the store has no embedder bound" };
    const memory = options.maintenanceWorkMem ? { setting: options.maintenanceWorkMem, note: null } : await autoBuildMemory(client);
    await client.query("SELECT set_config('maintenance_work_mem', $1, false)", [memory.setting]);
    const workers = options.parallelWorkers ?? PARALLEL_WORKERS_DEFAULT;
    await client.query("SELECT set_config('max_parallel_maintenance_workers', $1, false)", [String(workers)]);
    const stopWatching = options.onProgress ? await watchBuild(pool, client, options.onProgress, options.progressEveryMs ?? PROGRESS_EVERY_MS) : () => {};
    let action: DenseIndexReport["action"];
    try {
      if (found.valid === true) {
        await client.query(`REINDEX INDEX CONCURRENTLY ${HNSW_INDEX_NAME}`);
        action = "rebuilt";
      } else {
        if (found.valid === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${HNSW_INDEX_NAME}`);
        await client.query(`CREATE INDEX CONCURRENTLY ${HNSW_INDEX_DEFINITION}`);
        action = "created";
      }
    } finally {
      stopWatching();
    }
    const count = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM unit_vectors");
    return {
      action,
      vectors: Number(count.rows[0]!.n),
      seconds: (performance.now() - started) / 1000,
      maintenanceWorkMem: memory.setting,
      parallelWorkers: workers,
      ...(memory.note ? { note: memory.note } : {}),
    };
  } finally {
    // Settings were made for the session: the connection is closed rather than pooled with them.
    client.release(true);
  }
}

/**
 * A serial build by default: pgvector 0.8.0's parallel build gives a worse
 * graph. On the scale bench's 100k vectors with every copy of a vector in the
 * graph (before schema 11): dense recall@100 0.76 with 2 workers, 0.97 serial.
 * With copies left out (schema 11), builds of one store, load 0.4–1.8: serial
 * 0.947, 0.967, 0.947 (26–32 s); 1 worker 0.878, 0.923 (15–16 s); 2 workers
 * 0.844 (18 s). `parallelWorkers` trades that recall for the build's time.
 */
export const PARALLEL_WORKERS_DEFAULT = 0;

/** The most `parallelWorkers` a build takes (PostgreSQL's own limit for max_parallel_maintenance_workers). */
export const MAX_PARALLEL_WORKERS = 1024;

/**
 * Refuses build options no build can run with, before anything is done: a
 * bulk load checks them ahead of dropping the index and writing, not at the
 * build that follows the writes.
 */
export function checkDenseIndexBuildOptions(options: DenseIndexBuildOptions): void {
  const workers: unknown = options.parallelWorkers;
  if (!(workers === undefined || (typeof workers === "number" && Number.isInteger(workers) && workers >= 0 && workers <= MAX_PARALLEL_WORKERS))) {
    throw new RamemError("BAD_OPTION", `parallelWorkers must be a whole number from 0 to ${MAX_PARALLEL_WORKERS}, got ${describeValue(workers)}`, {
      where: "parallelWorkers",
      hint: "0 builds serially; the server also caps it (max_worker_processes, max_parallel_workers)",
    });
  }
  const memory: unknown = options.maintenanceWorkMem;
  if (memory === undefined) return;
  const kb = typeof memory === "string" ? memorySettingKb(memory) : null;
  if (kb !== null && kb >= MIN_BUILD_MEMORY_KB && kb <= MAX_BUILD_MEMORY_KB) return;
  throw new RamemError("BAD_OPTION", `maintenanceWorkMem must be a PostgreSQL memory size from 1MB to 2147483647kB (just under 2TB), got ${describeValue(memory)}`, {
    where: "maintenanceWorkMem",
    hint: 'a number with a unit, as in postgresql.conf: "512MB", "3GB" (units B, kB, MB, GB, TB; a bare number is kB); leave it out for what the graph needs',
  });
}

/** maintenance_work_mem's bounds in PostgreSQL (guc_tables.c): 1024 kB to MAX_KILOBYTES. */
const MIN_BUILD_MEMORY_KB = 1024;
const MAX_BUILD_MEMORY_KB = 2_147_483_647;
const MEMORY_UNIT_KB: Record<string, number> = { B: 1 / 1024, kB: 1, MB: 1024, GB: 1024 ** 2, TB: 1024 ** 3 };

/** A memory setting in kB, read as PostgreSQL reads one (units case-sensitive, a bare number in kB), or null when it would refuse it. */
export function memorySettingKb(setting: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|kB|MB|GB|TB)?\s*$/.exec(setting);
  return m ? Math.round(Number(m[1]) * MEMORY_UNIT_KB[m[2] ?? "kB"]!) : null;
}

/**
 * pgvector's build memory per vector beyond the 4·dims bytes of its values
 * (m 16): the build of 100k 256-dim vectors noticed "hnsw graph no longer fits
 * into maintenance_work_mem after 37186 tuples" at 64MB, 1,805 bytes each.
 */
const BUILD_OVERHEAD_BYTES_PER_VECTOR = 800;

/**
 * The most a build asks for on its own (a serial build takes memory as the
 * graph grows, so this bounds what a large load can take from a small server):
 * 1M vectors of 512 dimensions fit. Above it, `maintenanceWorkMem` decides.
 */
export const AUTO_BUILD_MEMORY_CAP_MB = 4096;

/** The maintenance_work_mem, in MB, a serial HNSW build of `vectors` vectors of `dimensions` needs to keep its graph in memory (a tenth to spare). */
export function buildMemoryMb(vectors: number, dimensions: number): number {
  return Math.ceil((vectors * (4 * dimensions + BUILD_OVERHEAD_BYTES_PER_VECTOR) * 1.1) / 2 ** 20);
}

/**
 * The build's maintenance_work_mem when none is given: what the table's
 * vectors need, at least the server's own setting, at most the cap. Below the
 * need, pgvector builds the rest of the graph on disk, 3.3× slower at 100k
 * vectors (90 s at 64MB against 27 s in memory) and worse at 1M (1,537 s at
 * 1GB, with 580k vectors in memory).
 */
async function autoBuildMemory(client: pg.PoolClient): Promise<{ setting: string; note: string | null }> {
  const { rows } = await client.query<{ n: string; dims: number; server: string }>(
    `SELECT (SELECT count(*) FROM unit_vectors)::text AS n,
            (SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass('unit_vectors') AND attname = 'embedding') AS dims,
            pg_size_bytes(current_setting('maintenance_work_mem'))::text AS server`,
  );
  const need = buildMemoryMb(Number(rows[0]!.n), Math.max(1, rows[0]!.dims));
  const serverMb = Math.floor(Number(rows[0]!.server) / 2 ** 20);
  const mb = Math.max(serverMb, Math.min(need, AUTO_BUILD_MEMORY_CAP_MB));
  const note =
    need > mb
      ? `the graph needs about ${need}MB of maintenance_work_mem and the build took ${mb}MB, so part of it is built on disk (slower): pass maintenanceWorkMem (ramem reindex --maintenance-work-mem ${need}MB) where the server has the memory`
      : null;
  return { setting: `${mb}MB`, note };
}

/** How often a build's progress is read, unless the caller says. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Reads the build's row of pg_stat_progress_create_index every `everyMs` on
 * another pooled connection and reports its phase and heap blocks read
 * (pgvector 0.8 leaves tuples_total at 0 while it loads). Advisory: a failed
 * read is skipped, and a read is never started while one is running.
 * Returns the function that stops it.
 */
async function watchBuild(pool: pg.Pool, client: pg.PoolClient, onProgress: NonNullable<DenseIndexBuildOptions["onProgress"]>, everyMs: number): Promise<() => void> {
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const pid = rows[0]!.pid;
  let reading = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    pool
      .query<{ phase: string; done: string; total: string }>("SELECT phase, blocks_done::text AS done, blocks_total::text AS total FROM pg_stat_progress_create_index WHERE pid = $1", [pid])
      .then(({ rows: [row] }) => {
        // A read that waited for a pooled connection may come back after the build: not reported then.
        if (row && !stopped) onProgress(Number(row.done), Number(row.total), row.phase);
      })
      .catch(() => {})
      .finally(() => (reading = false));
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** True when the HNSW index is there and valid (not dropped, not left invalid by an interrupted build). */
export async function hasValidDenseIndex(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ valid: boolean | null }>("SELECT (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass($1)) AS valid", [HNSW_INDEX_NAME]);
  return rows[0]?.valid === true;
}

/**
 * Drops the HNSW index for a bulk load (DROP INDEX CONCURRENTLY: running
 * searches finish first, none is blocked). Until rebuildDenseIndex builds it
 * again, dense searches in large namespaces scan their vectors exactly:
 * complete, slower. Returns false when there was no index.
 */
export async function dropDenseIndex(pool: pg.Pool): Promise<boolean> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ there: boolean }>("SELECT to_regclass($1) IS NOT NULL AS there", [HNSW_INDEX_NAME]);
    if (!rows[0]!.there) return false;
    await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${HNSW_INDEX_NAME}`);
    return true;
  } finally {
    client.release();
  }
}

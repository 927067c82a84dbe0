import type pg from "pg";
import { performance } from "node:perf_hooks";
import type { DenseIndexReport } from "./dense-index-report.js";

export type { DenseIndexReport } from "./dense-index-report.js";

/** The HNSW index over every namespace's vectors (cosine), as the first bindEmbedder creates it. */
export const HNSW_INDEX_NAME = "unit_vectors_hnsw";
export const HNSW_INDEX_DEFINITION = `${HNSW_INDEX_NAME} ON unit_vectors USING hnsw (embedding vector_cosine_ops)`;

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
 * transaction); `maintenanceWorkMem` (e.g. "1GB") is set for this session
 * only: pgvector builds much faster while the graph fits in it.
 */
export async function rebuildDenseIndex(pool: pg.Pool, options: { maintenanceWorkMem?: string } = {}): Promise<DenseIndexReport> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ table: string | null; valid: boolean | null }>(
      "SELECT to_regclass('unit_vectors')::text AS table, (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass($1)) AS valid",
      [HNSW_INDEX_NAME],
    );
    const found = rows[0]!;
    if (found.table === null) return { action: "none", vectors: 0, seconds: 0, note: "no vectors yet: the store has no embedder bound" };
    if (options.maintenanceWorkMem) await client.query("SELECT set_config('maintenance_work_mem', $1, false)", [options.maintenanceWorkMem]);
    // A serial build: on the scale bench's 100k vectors (a quarter of them
    // repeated texts) pgvector 0.8.0's parallel build (2 workers) gave a graph
    // with dense recall@100 0.76 at ef_search 400, a serial one 0.97 (README › Numbers).
    await client.query("SET max_parallel_maintenance_workers = 0");
    let action: DenseIndexReport["action"];
    if (found.valid === true) {
      await client.query(`REINDEX INDEX CONCURRENTLY ${HNSW_INDEX_NAME}`);
      action = "rebuilt";
    } else {
      if (found.valid === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${HNSW_INDEX_NAME}`);
      await client.query(`CREATE INDEX CONCURRENTLY ${HNSW_INDEX_DEFINITION}`);
      action = "created";
    }
    const count = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM unit_vectors");
    return { action, vectors: Number(count.rows[0]!.n), seconds: (performance.now() - started) / 1000 };
  } finally {
    // Settings were made for the session: the connection is closed rather than pooled with them.
    client.release(true);
  }
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

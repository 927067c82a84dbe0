import type pg from "pg";
import { toSql } from "pgvector/pg";
import type { ScoredUnitId } from "../contract.js";
import { inTransaction } from "./in-transaction.js";
import type { FilterNode } from "../../model/memory-filter.js";
import { postgresFilter } from "./postgres-filter.js";

import type { DensePath, DenseSearchInfo } from "./dense-search-info.js";

export type { DensePath, DenseSearchInfo } from "./dense-search-info.js";

export interface DenseSearchOptions {
  /** Namespaces with at most this many units are searched exactly (no index). */
  exactMaxUnits: number;
  /** False when the table has no HNSW index (dimensions above pgvector's HNSW limit). */
  hasIndex: boolean;
  onSearch?: ((info: DenseSearchInfo) => void) | undefined;
  /**
   * Make the planner answer the HNSW path from the index even where it would
   * rather sort the namespace's rows (small namespaces): for tests of the
   * filtered-scan guards, which otherwise the planner hides.
   */
  forceIndex?: boolean | undefined;
  /** Only units this filter selects: then the search is an exact scan of them (a filtered HNSW scan could come back short). */
  where?: FilterNode | undefined;
}

/**
 * Distances computed in a MATERIALIZED CTE without ORDER BY: the planner
 * cannot answer it from the HNSW index, so this is an exact scan of the
 * namespace's rows (found through the (namespace, unit_id) primary key).
 */
const EXACT_SQL = `
  WITH d AS MATERIALIZED (
    SELECT unit_id, embedding <=> $2::vector AS dist FROM unit_vectors WHERE namespace = $1
  )
  SELECT unit_id AS id, dist FROM d ORDER BY dist, unit_id COLLATE "C" LIMIT $3`;

/**
 * The inner query is the shape pgvector's HNSW index answers (ORDER BY
 * distance LIMIT); relaxed_order iterative scans may return rows slightly out
 * of order, so the outer query sorts again.
 */
const HNSW_SQL = `
  SELECT id, dist FROM (
    SELECT unit_id AS id, embedding <=> $2::vector AS dist FROM unit_vectors
    WHERE namespace = $1 ORDER BY embedding <=> $2::vector LIMIT $3
  ) t ORDER BY dist, id COLLATE "C"`;

/**
 * ef_search for a top-k: the candidate list the graph walk keeps. At ef = k
 * the scale bench measured 50 % of the exact top 100 at 100k units. On an
 * index built in one go there, its 100 queries: recall@100 0.947 at 6·k,
 * 0.978 at 7·k, 0.979 at 8·k, 0.983 at 1,000, at 24.1 / 25.6 / 28.3 / 32.6 ms
 * p50 (load 9-10); 80 other queries gave 0.935 at 4·k. Builds differ by
 * about 0.02, so 8·k (capped at pgvector's 1,000) keeps the ≥ 0.95 target
 * with room (README › Numbers).
 */
export function efSearch(k: number): number {
  return Math.min(1000, Math.max(40, 8 * k));
}

function toHits(rows: { id: string; dist: number }[]): ScoredUnitId[] {
  return rows.map((r, i) => ({ id: r.id, score: 1 - Number(r.dist), rank: i + 1 }));
}

/**
 * Top-k by cosine similarity within one namespace, always complete:
 * min(k, units in namespace) rows.
 *
 * An HNSW scan filtered by `WHERE namespace = ...` visits the graph's nearest
 * neighbours of *all* namespaces and drops the others' rows afterwards, so it
 * can silently return fewer than k rows. Three guards, cheapest first:
 * 1. small namespaces (the common case per tenant) are searched exactly;
 * 2. large ones use pgvector 0.8's iterative index scan (relaxed_order), which
 *    keeps walking the graph until k rows pass the filter (up to
 *    hnsw.max_scan_tuples), with ef_search at least k;
 * 3. if that still returns fewer than min(k, units), the exact scan answers.
 */
export async function searchDenseComplete(
  pool: pg.Pool,
  namespace: string,
  vector: Float32Array,
  k: number,
  opts: DenseSearchOptions,
): Promise<ScoredUnitId[]> {
  // Named statements: prepared once per pooled connection instead of planned on every search.
  if (opts.where) {
    const values: unknown[] = [namespace, toSql(Array.from(vector)), k];
    const filter = postgresFilter(opts.where, values);
    const { rows } = await pool.query<{ id: string; dist: number }>(
      `WITH d AS MATERIALIZED (
         SELECT v.unit_id, v.embedding <=> $2::vector AS dist
         FROM unit_vectors v JOIN units u ON u.namespace = v.namespace AND u.id = v.unit_id
              JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id
         WHERE v.namespace = $1 AND ${filter}
       )
       SELECT unit_id AS id, dist FROM d ORDER BY dist, unit_id COLLATE "C" LIMIT $3`,
      values,
    );
    opts.onSearch?.({ path: "exact", namespaceUnits: rows.length, rows: rows.length });
    return toHits(rows);
  }
  const count = await pool.query<{ n: number }>({
    name: "ramem_dense_count",
    text: "SELECT coalesce(sum(unit_count), 0)::int AS n FROM sessions WHERE namespace = $1",
    values: [namespace],
  });
  const namespaceUnits = count.rows[0]?.n ?? 0;
  if (namespaceUnits === 0 || k === 0) return [];
  const want = Math.min(k, namespaceUnits);
  const literal = toSql(Array.from(vector));
  const exact = async (path: DensePath) => {
    const { rows } = await pool.query<{ id: string; dist: number }>({ name: "ramem_dense_exact", text: EXACT_SQL, values: [namespace, literal, k] });
    opts.onSearch?.({ path, namespaceUnits, rows: rows.length });
    return toHits(rows);
  };
  if (!opts.hasIndex || namespaceUnits <= opts.exactMaxUnits) return exact("exact");

  const rows = await inTransaction(pool, async (client) => {
    // SET LOCAL: the settings end with the transaction, so pooled clients stay clean.
    await client.query(
      "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)",
      [String(efSearch(k))],
    );
    if (opts.forceIndex) {
      await client.query("SELECT set_config(n, 'off', true) FROM unnest(ARRAY['enable_sort', 'enable_seqscan', 'enable_bitmapscan']) AS n");
    }
    return (await client.query<{ id: string; dist: number }>({ name: "ramem_dense_hnsw", text: HNSW_SQL, values: [namespace, literal, k] })).rows;
  });
  if (rows.length < want) return exact("hnsw-then-exact");
  opts.onSearch?.({ path: "hnsw", namespaceUnits, rows: rows.length });
  return toHits(rows);
}

import type pg from "pg";
import { toSql } from "pgvector/pg";
import type { ScoredUnitId } from "../contract.js";
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
 * One round trip for the common case: the namespace's size decides between
 * the exact scan and the HNSW index inside the statement. The size is counted
 * through the (namespace, unit_id) key only up to $4 (one past the larger of
 * the exact threshold $5 and k), which is all the choice needs; each branch
 * sits under a one-time filter on it, so only one of them runs. The HNSW
 * branch is the shape pgvector's index answers (ORDER BY distance LIMIT),
 * over the first row of each vector value (schema 11: copies of one vector
 * sink the graph); each value found brings its copies through the value
 * index, which tie with it, and the best k of them all are kept. relaxed_order iterative scans may return rows slightly out of order, so the
 * outer query sorts again. The LEFT JOIN keeps the size when nothing is found.
 * Before, the count (over the namespace's sessions), BEGIN, the settings, the
 * search and COMMIT were five round trips: 2.7 of a 16.4 ms search at 100k.
 */
const SEARCH_SQL = `
  WITH size AS (SELECT count(*)::int AS n FROM (SELECT FROM unit_vectors WHERE namespace = $1 LIMIT $4) c),
  exact AS MATERIALIZED (
    SELECT unit_id, embedding <=> $2::vector AS dist FROM unit_vectors WHERE namespace = $1 AND (SELECT n FROM size) <= $5
  ),
  firsts AS MATERIALIZED (
    SELECT unit_id, embedding, embedding <=> $2::vector AS dist FROM unit_vectors
    WHERE namespace = $1 AND NOT repeats AND (SELECT n FROM size) > $5 ORDER BY embedding <=> $2::vector LIMIT $3
  ),
  found AS (
    (SELECT unit_id AS id, dist FROM exact ORDER BY dist, unit_id COLLATE "C" LIMIT $3)
    UNION ALL
    (SELECT v.unit_id AS id, f.dist FROM firsts f
     JOIN unit_vectors v ON v.namespace = $1 AND md5(v.embedding::text)::uuid = md5(f.embedding::text)::uuid AND v.embedding = f.embedding
     ORDER BY f.dist, v.unit_id COLLATE "C" LIMIT $3)
  )
  SELECT s.n, f.id, f.dist FROM size s LEFT JOIN found f ON true ORDER BY f.dist, f.id COLLATE "C"`;

/**
 * The HNSW settings are made per session, not per transaction: each pooled
 * connection remembers the ef_search it was last given, so a search sends
 * them only when its k asks for another one. They affect HNSW scans alone,
 * and this file is the only place that runs those.
 */
const efSearchOf = new WeakMap<pg.PoolClient, number>();

async function withSearchSettings<T>(pool: pg.Pool, ef: number, forceIndex: boolean, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    if (efSearchOf.get(client) !== ef) {
      efSearchOf.delete(client);
      await client.query(`SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = ${ef}`);
      efSearchOf.set(client, ef);
    }
    if (!forceIndex) return await fn(client);
    // Tests only: the planner settings stay inside a transaction, so they end with it.
    await client.query("BEGIN; SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off");
    try {
      const out = await fn(client);
      await client.query("COMMIT");
      return out;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    }
  } catch (err) {
    // Whatever the connection's state now is, the next search sets it again.
    efSearchOf.delete(client);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * ef_search for a top-k: the candidate list the graph walk keeps. At ef = k
 * the scale bench measured 50 % of the exact top 100 at 100k units. On an
 * index built in one go there, its 100 queries: recall@100 0.947 at 6·k,
 * 0.978 at 7·k, 0.979 at 8·k, 0.983 at 1,000, at 24.1 / 25.6 / 28.3 / 32.6 ms
 * p50 (load 9-10); 80 other queries gave 0.935 at 4·k. Builds differ more
 * than that on the bench's corpus (a quarter of its vectors are duplicates):
 * six builds of the 100k store (four bulk loads, two REINDEXes) gave 0.985 /
 * 0.988 / 0.992 / 0.992 / 0.961 / 0.959 at 10·k, and five of them 0.984 /
 * 0.901 / 0.989 / 0.956 / 0.954 at 8·k, which costs ~1–2 ms of a ~14 ms search (README ›
 * Numbers › Scale, eighth round). Hence 10·k, capped at pgvector's 1,000.
 */
export function efSearch(k: number): number {
  return Math.min(1000, Math.max(40, 10 * k));
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
  const literal = toSql(Array.from(vector));
  const exact = async (path: DensePath, namespaceUnits: number) => {
    const { rows } = await pool.query<{ id: string; dist: number }>({ name: "ramem_dense_exact", text: EXACT_SQL, values: [namespace, literal, k] });
    opts.onSearch?.({ path, namespaceUnits, rows: rows.length });
    return toHits(rows);
  };
  if (!opts.hasIndex) {
    const { rows } = await pool.query<{ n: number }>({ name: "ramem_dense_count", text: "SELECT coalesce(sum(unit_count), 0)::int AS n FROM sessions WHERE namespace = $1", values: [namespace] });
    const namespaceUnits = rows[0]?.n ?? 0;
    return namespaceUnits === 0 ? [] : exact("exact", namespaceUnits);
  }
  const countUpTo = Math.max(opts.exactMaxUnits, k) + 1;
  const result = await withSearchSettings(pool, efSearch(k), opts.forceIndex === true, (client) =>
    client.query<{ n: number; id: string | null; dist: number | null }>({ name: "ramem_dense_search", text: SEARCH_SQL, values: [namespace, literal, k, countUpTo, opts.exactMaxUnits] }),
  );
  const namespaceUnits = result.rows[0]?.n ?? 0;
  if (namespaceUnits === 0) return [];
  const rows = result.rows.filter((r): r is { n: number; id: string; dist: number } => r.id !== null);
  const path: DensePath = namespaceUnits <= opts.exactMaxUnits ? "exact" : "hnsw";
  // Below the threshold namespaceUnits is the exact count; above it, it is countUpTo > k, so want is k.
  if (path === "hnsw" && rows.length < Math.min(k, namespaceUnits)) return exact("hnsw-then-exact", namespaceUnits);
  opts.onSearch?.({ path, namespaceUnits, rows: rows.length });
  return toHits(rows);
}

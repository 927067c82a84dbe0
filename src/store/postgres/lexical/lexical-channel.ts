import type { ScoredUnitId } from "../../contract.js";
import type { FilterNode } from "../../../model/memory-filter.js";

/**
 * What a lexical channel queries through: a pg Pool or PoolClient, described
 * by shape so that the public types name nothing of pg (whose types are not a
 * dependency of ramem's users).
 */
export interface Queryable {
  query<R = Record<string, unknown>>(config: string | { name?: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * The postgres dialect's lexical channel, version 1: how `searchLexical`
 * finds and ranks units by words. Kept behind this interface because
 * PostgreSQL's built-in ranking (ts_rank_cd) is not BM25 and a BM25
 * implementation (an extension, or a statistics table) may replace it
 * without touching the store.
 *
 * `terms` are normalised words (the contract's searchLexical); an
 * implementation must treat them as plain words, never as query syntax, and
 * pass them only as parameters.
 */
export interface LexicalChannel {
  readonly specificationVersion: "v1";
  /** Names the ranking, e.g. "ts_rank_cd/english". */
  readonly id: string;
  /**
   * Best first, ranks 1-based, scores higher-is-better and finite; at most
   * `limit` rows, all of `namespace` and, when `where` is given, all
   * selected by it (postgresFilter, over `units u JOIN sessions s`).
   */
  search(db: Queryable, namespace: string, terms: readonly string[], limit: number, where?: FilterNode): Promise<ScoredUnitId[]>;
}

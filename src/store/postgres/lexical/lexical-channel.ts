import type { ScoredUnitId } from "../../contract.js";
import type { Queryable } from "../schema.js";
import type { FilterNode } from "../../../model/memory-filter.js";

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

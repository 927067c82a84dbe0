/**
 * The SQLite store's two searches. Lexical: FTS5 (the MATCH alone in a
 * materialised CTE, common terms pruned in large namespaces), or above
 * LEXICAL_INDEX_MIN_UNITS the in-memory bm25 index (lexical-index.ts). Dense:
 * sqlite-vec KNN (an exact scan when filtered or above vec0's k cap), or
 * above the ANN threshold the HNSW index (dense-index.ts). Index hits are
 * joined back to `units`, so a unit deleted meanwhile is never returned.
 */
import { stemmer } from "stemmer";
import { RamemError } from "../../model/errors.js";
import type { ScoredUnitId, SearchOptions } from "../contract.js";
import { UNITS_WITH_SESSION } from "../unit-row.js";
import { sqliteFilter } from "./sqlite-filter.js";
import type { SqliteDenseIndexes } from "./dense-index.js";
import type { SqliteLexicalIndexes } from "./lexical-index.js";
import type { SqliteHandle } from "./sqlite-handle.js";
import type { NamespaceCaches } from "./namespace-cache.js";
import { clampLimit, namespaceToken } from "./sqlite-rows.js";
import { LEXICAL_INDEX_MIN_UNITS, LEXICAL_PRUNE_MIN_UNITS, toFtsQuery } from "./fts-query.js";

/** sqlite-vec refuses a KNN `k` above this. */
const VEC_MAX_K = 4096;

/**
 * The terms, matched in content and cue only, of the units of one namespace:
 * the namespace's token is ANDed inside the index, so FTS5 never walks
 * another namespace's postings past what the AND skips over. The ns_key
 * column has weight 0 in bm25(), but FTS5 counts a row's length over every
 * indexed column, so each unit reads one token longer than before schema 3:
 * LoCoMo Recall@10 moved by +0.002 (README › Numbers › Scale).
 */
function namespaceFtsQuery(namespace: string, terms: string): string {
  return `ns_key : "${namespaceToken(namespace)}" AND {content cue} : (${terms})`;
}

/** bm25 weights per column: content, cue, namespace (unindexed), ns_key. */
const BM25 = "bm25(fts, 1.0, 0.5, 0.0, 0.0)";

export class SqliteSearch {
  constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: NamespaceCaches,
    private readonly lexical: SqliteLexicalIndexes,
    private readonly dense: SqliteDenseIndexes,
    private readonly annMinUnits: number,
  ) {}

  private stmt(sql: string) {
    return this.handle.stmt(sql);
  }

  /**
   * The terms without those found in at least half of the file's units.
   * FTS5's bm25 gives such a term an idf of 1e-6 (its log is ≤ 0), so it adds
   * at most ~2e-6 to a unit's score, yet scoring it means walking and scoring
   * every posting: a speaker's name is in every unit they said ("Alice: …"),
   * which at 100k units is most of a search's time. Without it, units that
   * only it matched leave the lexical list (they ranked by noise) and the
   * near-ties it broke fall to rowid. Document counts come from fts5vocab by
   * the term's porter stem; a stem FTS5 spells otherwise is not found and the
   * term is kept. All terms that common: the query is left as it is. Only in
   * namespaces of LEXICAL_PRUNE_MIN_UNITS units or more: below, lexical
   * results are exactly FTS5's (LoCoMo's namespaces hold 300–700 units).
   */
  private informativeTerms(namespace: string, terms: readonly string[]): readonly string[] {
    if (!this.prunesCommonTerms(namespace)) return terms;
    const stats = this.caches.termStats;
    stats.rows ??= Number(this.stmt("SELECT count(*) FROM units").pluck().get());
    const rows = stats.rows;
    const docsOf = (term: string): number => {
      let docs = stats.docs.get(term);
      if (docs === undefined) {
        docs = Number((this.stmt("SELECT doc FROM temp.fts_vocab WHERE term = ?").pluck().get(stemmer(term.toLowerCase())) as number | undefined) ?? 0);
        stats.docs.set(term, docs);
      }
      return docs;
    };
    const kept = terms.filter((t) => !(rows > 0 && /^[\p{L}\p{N}]+$/u.test(t) && 2 * docsOf(t) >= rows));
    return kept.length ? kept : terms;
  }

  /** Whether the namespace is large enough for lexical search to leave out terms bm25 weighs ~0 (informativeTerms). */
  private prunesCommonTerms(namespace: string): boolean {
    const entry = this.caches.entryOf(namespace);
    entry.units ??= Number(this.stmt("SELECT coalesce(sum(unit_count), 0) FROM sessions WHERE namespace = ?").pluck().get(namespace));
    return entry.units >= Math.min(LEXICAL_PRUNE_MIN_UNITS, this.annMinUnits);
  }

  searchLexical(namespace: string, terms: readonly string[], limit: number, options: SearchOptions): ScoredUnitId[] {
    if (!options.where && clampLimit(limit, 0) > 0) {
      // Ranked as FTS5 would rank it, at a cost per posting FTS5 cannot match (lexical-index.ts); the index leaves out the
      // terms informativeTerms would, counting their units itself (fts5vocab walks a term's postings to count them).
      const words = terms.map((t) => t.trim()).filter((t) => t.length > 0);
      const ranked = this.lexical.search(namespace, words, clampLimit(limit, 0), namespaceToken(namespace), this.prunesCommonTerms(namespace));
      if (ranked) {
        // In the index's order; a unit deleted since the index caught up is not in the join, so it is never returned.
        const idOf = this.unitIdsOf(namespace, ranked.map((h) => h.rowid));
        return ranked.filter((h) => idOf.has(h.rowid)).map((h, i) => ({ id: idOf.get(h.rowid)!, score: h.score, rank: i + 1 }));
      }
    }
    const query = toFtsQuery(this.informativeTerms(namespace, terms));
    const k = clampLimit(limit, 0);
    if (!query || k === 0) return [];
    if (options.where) {
      // Every match is scored first (the MATCH alone, as below), then the filter narrows them inside the same statement.
      const params: unknown[] = [namespaceFtsQuery(namespace, query), namespace];
      const filter = sqliteFilter(options.where, params);
      params.push(k);
      const rows = this.stmt(
        `WITH hits AS MATERIALIZED (
           SELECT rowid, ${BM25} AS b FROM fts WHERE fts MATCH ? AND namespace = ?
         )
         SELECT u.id AS id, hits.b AS b FROM hits JOIN units u ON u.rowid = hits.rowid JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id
         WHERE ${filter} ORDER BY hits.b, hits.rowid LIMIT ?`,
      ).all(...params) as { id: string; b: number }[];
      return rows.map((r, i) => ({ id: r.id, score: -r.b, rank: i + 1 }));
    }
    // The MATCH runs alone in the CTE; joining units inside it lets SQLite drive
    // the FTS lookup once per unit row, which is seconds on a large store.
    const rows = this.stmt(
      `WITH hits AS MATERIALIZED (
         SELECT rowid, ${BM25} AS b FROM fts
         WHERE fts MATCH ? AND namespace = ?
         ORDER BY b, rowid LIMIT ?
       )
       SELECT u.id AS id, hits.b AS b FROM hits JOIN units u ON u.rowid = hits.rowid
       ORDER BY hits.b, hits.rowid`,
    ).all(namespaceFtsQuery(namespace, query), namespace, k) as { id: string; b: number }[];
    return rows.map((r, i) => ({ id: r.id, score: -r.b, rank: i + 1 }));
  }

  searchDense(namespace: string, vector: Float32Array, limit: number, options: SearchOptions): ScoredUnitId[] {
    const k = clampLimit(limit, 0);
    const bound = this.handle.binding();
    if (!bound || k === 0) return [];
    if (vector.length !== bound.dimensions) {
      throw new RamemError(
        "EMBEDDING_DIMENSION_MISMATCH",
        `query vector has ${vector.length} dims; the store holds ${bound.dimensions}-dim vectors of ${bound.embedder}`,
        { where: this.handle.location, hint: "embed the query with the embedder the store was built with" },
      );
    }
    if (options.where) {
      // A filtered search is an exact scan of the units the filter selects: vec0's KNN cannot filter on metadata, and a KNN then filtered could come back short.
      const params: unknown[] = [vector, namespace];
      const filter = sqliteFilter(options.where, params);
      params.push(BigInt(k));
      const rows = this.stmt(
        `SELECT u.id AS id, vec_distance_cosine(v.embedding, ?) AS d FROM ${UNITS_WITH_SESSION} JOIN vec v ON v.rowid = u.rowid
         WHERE u.namespace = ? AND ${filter} ORDER BY d, u.rowid LIMIT ?`,
      ).all(...params) as { id: string; d: number }[];
      return rows.map((r, i) => ({ id: r.id, score: 1 - r.d, rank: i + 1 }));
    }
    if (k <= VEC_MAX_K) {
      const approximate = this.dense.search(namespace, vector, k, { ...bound, storeId: this.handle.storeId() });
      if (approximate) return this.idsOfRowids(namespace, approximate);
    }
    // Above vec0's k cap fall back to an exact scan of the partition, so the
    // contract's min(limit, units) still holds.
    const exact = k > VEC_MAX_K;
    const sql = exact
      ? `SELECT v.rowid AS rowid, vec_distance_cosine(v.embedding, ?) AS d FROM vec v
         WHERE v.namespace = ? ORDER BY d LIMIT ?`
      : `SELECT v.rowid AS rowid, v.distance AS d FROM vec v
         WHERE v.embedding MATCH ? AND v.namespace = ? AND k = ?`;
    // MATERIALIZED keeps the outer ORDER BY from being pushed into vec0, which rejects it.
    const rows = this.stmt(
      `WITH knn AS MATERIALIZED (${sql})
       SELECT u.id AS id, knn.d AS d FROM knn JOIN units u ON u.rowid = knn.rowid
       ORDER BY knn.d, knn.rowid`,
    ).all(vector, namespace, BigInt(k)) as { id: string; d: number }[];
    return rows.map((r, i) => ({ id: r.id, score: 1 - r.d, rank: i + 1 }));
  }

  /** The index's hits as units of the namespace, best first; a unit deleted meanwhile is not in the join, so it is never returned. */
  private idsOfRowids(namespace: string, hits: ReadonlyArray<{ rowid: number; distance: number }>): ScoredUnitId[] {
    const idOf = this.unitIdsOf(namespace, hits.map((h) => h.rowid));
    const sorted = hits.filter((h) => idOf.has(h.rowid)).sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
    return sorted.map((h, i) => ({ id: idOf.get(h.rowid)!, score: 1 - h.distance, rank: i + 1 }));
  }

  /** The ids of those rowids that are units of the namespace. */
  private unitIdsOf(namespace: string, rowids: readonly number[]): Map<number, string> {
    return new Map(
      // CROSS JOIN keeps json_each outside: with `rowid IN (…) AND namespace = ?` the planner walked the namespace's index (12 ms at 100k units, against 0.3).
      (this.stmt("SELECT u.rowid AS rowid, u.id AS id FROM json_each(?) j CROSS JOIN units u ON u.rowid = j.value WHERE u.namespace = ?").all(JSON.stringify(rowids), namespace) as Array<{
        rowid: number;
        id: string;
      }>).map((r) => [r.rowid, r.id]),
    );
  }
}

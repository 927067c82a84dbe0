import { createHash } from "node:crypto";
import type { LexicalChannel } from "./lexical-channel.js";
import type { FilterNode } from "../../../model/memory-filter.js";
import { postgresFilter } from "../postgres-filter.js";

export interface TsRankOptions {
  /**
   * ts_rank_cd weights as {D, C, B, A}. Default: content (A) 1.0, cue (B) 0.5,
   * the same content:cue ratio as SQLite's bm25(fts, 1.0, 0.5).
   */
  weights?: readonly [number, number, number, number];
  /**
   * ts_rank_cd normalisation bit mask. Default 1: divide by 1 + log(document
   * length), so a long turn that mentions a word once does not beat a short
   * one that is about it (BM25 does the same through its length term).
   * The best of 0, 1, 2 on LoCoMo lexical-only Recall@10 (research/tune-lexical-pg.ts).
   */
  normalization?: number;
}

/**
 * Each term goes through plainto_tsquery (which ignores every operator
 * character: quotes, &, |, !, :*, <->, parentheses) and the per-term queries
 * are OR-ed. The OR is assembled from tsquery *output* text, which quotes
 * every lexeme, so no user text is ever parsed as tsquery syntax; the terms
 * themselves travel only as a bound text[] parameter. Terms that are only
 * stop words or punctuation yield an empty query and are dropped; none left
 * means no hits.
 *
 * Ties are broken by conversation order, like SQLite's rowid order.
 */
function searchSql(weights: readonly number[], normalization: number, filter = "TRUE"): string {
  return `
  WITH q AS (
    SELECT string_agg('(' || t.q::text || ')', ' | ')::tsquery AS q
    FROM (SELECT plainto_tsquery('english'::regconfig, term) AS q FROM unnest($2::text[]) AS term) t
    WHERE numnode(t.q) > 0
  )
  SELECT u.id, ts_rank_cd('{${weights.join(",")}}'::float4[], u.lexemes, (SELECT q FROM q), ${normalization}) AS score
  FROM units u JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id
  WHERE u.namespace = $1 AND u.lexemes @@ (SELECT q FROM q) AND ${filter}
  ORDER BY score DESC, s.start_at, u.session_id COLLATE "C", u.seq
  LIMIT $3`;
}

/** Cover-density ranking (ts_rank_cd) over the english configuration, with a GIN index on (namespace, lexemes). */
export function createTsRankLexical(options: TsRankOptions = {}): LexicalChannel {
  const weights = options.weights ?? [0.1, 0.2, 0.5, 1.0];
  const normalization = options.normalization ?? 1;
  if (weights.length !== 4 || !weights.every((w) => Number.isFinite(w) && w >= 0 && w <= 1)) {
    throw new RangeError("ts_rank_cd weights are four numbers in [0, 1]");
  }
  if (!Number.isInteger(normalization) || normalization < 0 || normalization > 63) throw new RangeError("normalization is a bit mask in 0..63");
  const sql = searchSql(weights, normalization);
  // Named: prepared once per connection instead of planned on every call.
  const statementName = `ramem_tsrank_${createHash("sha1").update(sql).digest("hex").slice(0, 12)}`;
  return {
    specificationVersion: "v1",
    id: `ts_rank_cd/english/w=${weights.join(",")}/n=${normalization}`,
    async search(db, namespace, terms, limit, where?: FilterNode) {
      // PostgreSQL text cannot hold NUL; such a character can only be noise in a word.
      const words = terms.map((t) => t.replaceAll("\0", "").trim()).filter((t) => t.length > 0);
      if (words.length === 0 || limit <= 0) return [];
      if (where) {
        const values: unknown[] = [namespace, words, limit];
        const { rows } = await db.query<{ id: string; score: number }>(searchSql(weights, normalization, postgresFilter(where, values)), values);
        return rows.map((r, i) => ({ id: r.id, score: Number(r.score), rank: i + 1 }));
      }
      const { rows } = await db.query<{ id: string; score: number }>({ name: statementName, text: sql, values: [namespace, words, limit] });
      return rows.map((r, i) => ({ id: r.id, score: Number(r.score), rank: i + 1 }));
    },
  };
}


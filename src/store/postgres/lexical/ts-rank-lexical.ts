import type { LexicalChannel } from "./lexical-channel.js";

/**
 * ts_rank_cd weights as {D, C, B, A}: content is weighted A (1.0) and the cue
 * B (0.5), the same content:cue ratio as SQLite's bm25(fts, 1.0, 0.5).
 */
const WEIGHTS = "{0.1,0.2,0.5,1.0}";

/**
 * ts_rank_cd normalisation flags: 1 divides the rank by 1 + log(document
 * length), so a long turn that mentions a word once does not beat a short
 * one that is about it (BM25 does the same through its length term).
 */
const NORMALIZATION = 1;

/**
 * Each term goes through plainto_tsquery (which ignores every operator
 * character: quotes, &, |, !, :*, parentheses) and the per-term queries are
 * OR-ed. The OR is assembled from tsquery *output* text, which quotes every
 * lexeme, so no user text is ever parsed as tsquery syntax. Terms that are
 * only stop words or punctuation yield an empty query and are dropped; none
 * left means no hits.
 *
 * Ties are broken by conversation order, like SQLite's rowid order.
 */
const SEARCH_SQL = `
  WITH q AS (
    SELECT string_agg('(' || t.q::text || ')', ' | ')::tsquery AS q
    FROM (SELECT plainto_tsquery('english'::regconfig, term) AS q FROM unnest($2::text[]) AS term) t
    WHERE numnode(t.q) > 0
  )
  SELECT u.id, ts_rank_cd('${WEIGHTS}'::float4[], u.lexemes, (SELECT q FROM q), ${NORMALIZATION}) AS score
  FROM units u
  WHERE u.namespace = $1 AND u.lexemes @@ (SELECT q FROM q)
  ORDER BY score DESC, u.session_start, u.session_id COLLATE "C", u.seq
  LIMIT $3`;

/** Cover-density ranking over the english text search configuration, with a GIN index on (namespace, lexemes). */
export const tsRankLexical: LexicalChannel = {
  specificationVersion: "v1",
  id: "ts_rank_cd/english",
  async search(db, namespace, terms, limit) {
    // PostgreSQL text cannot hold NUL; such a character can only be noise in a word.
    const words = terms.map((t) => t.replaceAll("\0", "").trim()).filter((t) => t.length > 0);
    if (words.length === 0 || limit <= 0) return [];
    const { rows } = await db.query<{ id: string; score: number }>(SEARCH_SQL, [namespace, words, limit]);
    return rows.map((r, i) => ({ id: r.id, score: Number(r.score), rank: i + 1 }));
  },
};

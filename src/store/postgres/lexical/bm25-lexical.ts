import { createHash } from "node:crypto";
import type { LexicalChannel } from "./lexical-channel.js";

export interface Bm25Options {
  /** Term-frequency saturation (FTS5: 1.2). */
  k1?: number;
  /** Length normalisation (FTS5: 0.75). */
  b?: number;
  /** How much an occurrence in the cue counts against one in the content (SQLite: bm25(fts, 1.0, 0.5)). */
  cueWeight?: number;
}

/**
 * Okapi BM25 computed in SQL from the `lexemes` tsvector, with the formula
 * SQLite's FTS5 uses:
 *
 *   score = Σ_terms idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 *   idf   = max(1e-6, ln((N − n + 0.5) / (n + 0.5)))
 *
 * tf counts a term's positions, content (weight A) as 1 and cue (weight B) as
 * `cueWeight`; len is the unit's token count (`units.doc_len`). N, n and
 * avglen are taken **per namespace** (FTS5 takes them over the whole file):
 * a tenant's ranking never depends on another tenant's words.
 *
 * Terms are bound as one text[] parameter; each becomes a query through
 * plainto_tsquery (no operator syntax) and its lexemes through to_tsvector,
 * both with the english configuration the documents use. Matching lexemes
 * are compared as text, so no user text is parsed as tsquery syntax.
 *
 * Cost: one GIN-indexed count per term (n), then the matching units' tsvectors
 * are unnested: linear in the number of units matching any term.
 */
function searchSql(k1: number, b: number, cueWeight: number): string {
  return `
  WITH terms AS (
    SELECT row_number() OVER () AS tid, q, lexs
    FROM (SELECT DISTINCT ON (q::text) q, lexs
          FROM (SELECT plainto_tsquery('english'::regconfig, term) AS q,
                       tsvector_to_array(to_tsvector('english'::regconfig, term)) AS lexs
                FROM unnest($2::text[]) AS term) t
          WHERE numnode(q) > 0) d
  ),
  term_lexemes AS (SELECT tid, unnest(lexs) AS lexeme FROM terms),
  stats AS MATERIALIZED (
    SELECT count(*)::float8 AS n, greatest(avg(doc_len), 1)::float8 AS avglen FROM units WHERE namespace = $1
  ),
  idf AS MATERIALIZED (
    SELECT t.tid, greatest(1e-6, ln((s.n - d.c + 0.5) / (d.c + 0.5))) AS idf
    FROM terms t CROSS JOIN stats s
    CROSS JOIN LATERAL (SELECT count(*)::float8 AS c FROM units u WHERE u.namespace = $1 AND u.lexemes @@ t.q) d
  ),
  cand AS MATERIALIZED (
    SELECT u.id, u.lexemes, u.doc_len, u.session_start, u.session_id, u.seq FROM units u
    WHERE u.namespace = $1 AND u.lexemes @@ (SELECT string_agg('(' || q::text || ')', ' | ')::tsquery FROM terms)
  ),
  -- Each candidate's tsvector is unnested once; only the query's lexemes are kept.
  occurrences AS (
    SELECT c.id, x.lexeme, sum(CASE WHEN w = 'A' THEN 1.0 ELSE ${cueWeight} END)::float8 AS tf
    FROM cand c, unnest(c.lexemes) AS x (lexeme, positions, weights), unnest(x.weights) AS w
    WHERE x.lexeme IN (SELECT lexeme FROM term_lexemes)
    GROUP BY c.id, x.lexeme
  ),
  term_tf AS (
    SELECT o.id, tl.tid, sum(o.tf) AS tf FROM occurrences o JOIN term_lexemes tl USING (lexeme) GROUP BY o.id, tl.tid
  ),
  scored AS (
    SELECT c.id, c.session_start, c.session_id, c.seq,
           sum(i.idf * (tt.tf * ${k1 + 1}) / (tt.tf + ${k1} * (1 - ${b} + ${b} * c.doc_len / s.avglen))) AS score
    FROM term_tf tt JOIN idf i USING (tid) JOIN cand c ON c.id = tt.id CROSS JOIN stats s
    GROUP BY c.id, c.session_start, c.session_id, c.seq
  )
  SELECT id, score FROM scored
  ORDER BY score DESC, session_start, session_id COLLATE "C", seq
  LIMIT $3`;
}

function checkParam(name: string, v: number, min: number, max: number): number {
  if (!Number.isFinite(v) || v < min || v > max) throw new RangeError(`${name} must be a number in [${min}, ${max}]`);
  return v;
}

/** BM25 over the english configuration (needs schema version 2: units.doc_len). */
export function createBm25Lexical(options: Bm25Options = {}): LexicalChannel {
  const k1 = checkParam("k1", options.k1 ?? 1.2, 0, 10);
  const b = checkParam("b", options.b ?? 0.75, 0, 1);
  const cueWeight = checkParam("cueWeight", options.cueWeight ?? 0.5, 0, 1);
  // Only checked numbers are spliced into the SQL; user terms travel as parameters.
  const sql = searchSql(k1, b, cueWeight);
  const statementName = `ramem_bm25_${createHash("sha1").update(sql).digest("hex").slice(0, 12)}`;
  return {
    specificationVersion: "v1",
    id: `bm25/english/k1=${k1}/b=${b}/cue=${cueWeight}`,
    async search(db, namespace, terms, limit) {
      // PostgreSQL text cannot hold NUL; such a character can only be noise in a word.
      const words = terms.map((t) => t.replaceAll("\0", "").trim()).filter((t) => t.length > 0);
      if (words.length === 0 || limit <= 0) return [];
      // Named: prepared once per connection, so the planner does not re-plan this long statement on every call.
      const { rows } = await db.query<{ id: string; score: number }>({ name: statementName, text: sql, values: [namespace, words, limit] });
      return rows.map((r, i) => ({ id: r.id, score: Number(r.score), rank: i + 1 }));
    },
  };
}

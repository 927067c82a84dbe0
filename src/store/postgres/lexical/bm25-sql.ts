/**
 * The SQL that BM25's two statements share (bm25-lexical.ts: every posting
 * summed; bm25-max-score.ts: MaxScore). Both must give the same scores to the
 * bit, so each piece of arithmetic is written once, here. float8 throughout:
 * a numeric literal (0.5, 1e-6) would make every posting's arithmetic
 * numeric, several times slower.
 */

/** A single lexeme's idf from its namespace_terms row `nt` and `stats st` (FTS5: max(1e-6, ln((N − n + 0.5)/(n + 0.5)))). */
export const IDF = "greatest(1e-6::float8, ln((st.n - nt.docs + 0.5::float8) / (nt.docs + 0.5::float8)))";

/** A posting's term frequency: content occurrences count 1, cue occurrences `cueWeight`. */
export function termFrequency(cueWeight: number, posting: string): string {
  return `(${posting}.tf_content + ${cueWeight}::float8 * ${posting}.tf_cue)`;
}

/** One term's part of a unit's score, from float8 expressions for idf, tf and the unit's length (avglen from `stats st`). */
export function contribution(k1: number, b: number, idf: string, tf: string, docLen: string): string {
  return `${idf} * (${tf} * ${k1 + 1}::float8) / (${tf} + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * ${docLen} / st.avglen))`;
}

/**
 * An upper bound of what one term adds to any unit's score, over its
 * namespace_terms row `nt` (schema 8) and `stats st`: its idf times the tf
 * part at its largest tf in its shortest unit (each may come from another
 * posting: still a bound, as the tf part grows with tf and falls with
 * length). Without the row's maxima (never, after migration 8's backfill):
 * idf·(k1 + 1), the tf part's limit.
 */
export function termBound(k1: number, b: number, cueWeight: number): string {
  const maxTf = `(nt.max_tf_content + ${cueWeight}::float8 * nt.max_tf_cue)`;
  return `${IDF} * CASE WHEN nt.max_tf_content IS NULL OR nt.max_tf_cue IS NULL OR nt.min_doc_len IS NULL THEN ${k1 + 1}::float8
                        WHEN ${maxTf} <= 0 THEN 0::float8
                        ELSE ${contribution(k1, b, "1::float8", maxTf, "nt.min_doc_len::float8")} END`;
}

/** How far below θ a bound may fall and still keep its unit: float rounding must never prune (sums are ~1e-15 off). */
export const slack = (v: string) => `${v} - 1e-9::float8 * (1 + abs(${v}))`;

/**
 * The CTEs `terms`, `stats`, `common` and `kept`: the query's distinct terms
 * ($2) with their lexemes, N and avglen of namespace $1, and the terms kept
 * after leaving out those in half of a large namespace's units.
 */
export function keptTermsSql(pruneMinUnits: number): string {
  return `terms AS MATERIALIZED (
    SELECT row_number() OVER () AS tid, q, lexs
    FROM (SELECT DISTINCT ON (q::text) q, lexs
          FROM (SELECT plainto_tsquery('english'::regconfig, term) AS q,
                       tsvector_to_array(to_tsvector('english'::regconfig, term)) AS lexs
                FROM unnest($2::text[]) AS term) t
          WHERE numnode(q) > 0) d
  ),
  stats AS MATERIALIZED (
    SELECT coalesce(max(units), 0)::float8 AS n, greatest(coalesce(max(doc_len_sum::float8 / nullif(units, 0)), 0), 1)::float8 AS avglen
    FROM namespace_stats WHERE namespace = $1
  ),
  -- A term is common when every lexeme of it is in half of the namespace's units or more (a large namespace only).
  common AS MATERIALIZED (
    SELECT t.tid, (SELECT n FROM stats) >= ${pruneMinUnits} AND bool_and(coalesce(nt.docs, 0) * 2 >= (SELECT n FROM stats)) AS common
    FROM terms t CROSS JOIN unnest(t.lexs) AS l (lexeme) LEFT JOIN namespace_terms nt ON nt.namespace = $1 AND nt.lexeme = l.lexeme
    GROUP BY t.tid
  ),
  kept AS MATERIALIZED (
    SELECT t.tid, t.lexs FROM terms t JOIN common c USING (tid)
    WHERE NOT c.common OR NOT EXISTS (SELECT 1 FROM common WHERE NOT common)
  )`;
}

/**
 * From `scored (unit_id, score)`: the best $3 and every unit tied with the
 * last of them, joined to their units and sessions for the conversation
 * order that sorts the ties (the caller adds ORDER BY and LIMIT), with the
 * caller's `extraColumns` (", expr AS name, …").
 */
export function bestOf(scored: string, extraColumns = ""): string {
  return `cut AS (SELECT score FROM ${scored} ORDER BY score DESC OFFSET greatest($3 - 1, 0) LIMIT 1),
  best AS (SELECT * FROM ${scored} WHERE score >= coalesce((SELECT score FROM cut), '-Infinity'::float8))
  SELECT u.id, best.score, s.start_at, u.session_id, u.seq${extraColumns}
  FROM best JOIN units u ON u.namespace = $1 AND u.id = best.unit_id JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id`;
}

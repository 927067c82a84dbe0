import { IDF, bestOf, contribution, keptTermsSql, slack, termBound, termFrequency } from "./bm25-sql.js";

/** What the planning statement tells about each kept term. */
export interface TermPlan {
  tid: number;
  lexs: string[];
  /** Units holding the term's lexeme (null: none, or a term of several lexemes). */
  docs: number | null;
  idf: number | null;
  bound: number | null;
}

/**
 * The kept terms of $2 in namespace $1, in term order (tid), each with its
 * lexemes and, for a term of one lexeme, its unit count, idf and upper bound
 * (bm25-sql.ts termBound). Cheap: namespace_terms rows only, no posting.
 */
export function termPlanSql(k1: number, b: number, cueWeight: number, pruneMinUnits: number): string {
  return `
  WITH ${keptTermsSql(pruneMinUnits)}
  SELECT k.tid::int AS tid, k.lexs, nt.docs::float8 AS docs, ${IDF} AS idf, ${termBound(k1, b, cueWeight)} AS bound
  FROM kept k CROSS JOIN stats st LEFT JOIN namespace_terms nt ON cardinality(k.lexs) = 1 AND nt.namespace = $1 AND nt.lexeme = k.lexs[1]
  ORDER BY k.tid`;
}

/**
 * Worth trying the all-terms statement: its answer is exact only when θ —
 * the `limit`-th best score of the units holding every term — is above what
 * a unit lacking any one term can reach (the sum of the other terms'
 * bounds). θ is not known before; the units holding every term score about
 * the sum of the idfs (the tf part of one occurrence in a unit of average
 * length is 1), so the statement is tried when that sum clears the bar.
 * Only a guess: a wrong one costs time, never exactness (the statement
 * checks θ itself).
 */
export function allTermsLikelyExact(terms: readonly TermPlan[]): boolean {
  const bounds = terms.map((t) => t.bound!);
  const bar = bounds.reduce((a, x) => a + x, 0) - Math.min(...bounds);
  return terms.reduce((a, t) => a + t.idf!, 0) > bar;
}

/**
 * BM25 over the units holding every one of `terms` kept terms of one lexeme
 * each ($2: their lexemes in term order), exact when no other unit can reach
 * the best $3: the statement answers nothing otherwise (nor when fewer than
 * $3 units hold every term), and the caller runs the complete statement.
 *
 * Why it is exact: a unit lacking term i scores at most the sum of the other
 * terms' upper bounds (namespace_terms' maxima, schema 8), so when θ, the
 * $3-th best score among the units holding every term, is above that for
 * every i, only those units can score θ or more — and the best $3 (and their
 * ties) all do. Their scores are the complete statement's to the bit: each
 * term's part is the same expression, added in term order as its aggregate
 * adds them.
 *
 * Why it is fast: each term's postings are an index-only range scan in
 * unit-id order (the primary key), so the units holding all of them are a
 * merge join of those scans — no hash table over every posting, and only the
 * few units in the intersection are scored and sorted. On the scale bench's
 * queries of a month and a year (5,404 and 2,620 postings), 219 units hold
 * both.
 */
export function allTermsSql(k1: number, b: number, cueWeight: number, terms: number): string {
  const scan = (i: number) => `(SELECT p.unit_id, ${contribution(k1, b, `(SELECT idf FROM w WHERE ord = ${i})`, termFrequency(cueWeight, "p"), "p.doc_len::float8")} AS c
          FROM unit_terms p CROSS JOIN stats st WHERE p.namespace = $1 AND p.lexeme = $2[${i}]) x${i}`;
  const joins = Array.from({ length: terms - 1 }, (_, i) => `\n    JOIN ${scan(i + 2)} ON x${i + 2}.unit_id = x1.unit_id`).join("");
  // x1.c + x2.c + …: left to right, in term order.
  const sum = Array.from({ length: terms }, (_, i) => `x${i + 1}.c`).join(" + ");
  return `
  WITH stats AS MATERIALIZED (
    SELECT coalesce(max(units), 0)::float8 AS n, greatest(coalesce(max(doc_len_sum::float8 / nullif(units, 0)), 0), 1)::float8 AS avglen
    FROM namespace_stats WHERE namespace = $1
  ),
  w AS MATERIALIZED (
    SELECT l.ord, ${IDF} AS idf, ${termBound(k1, b, cueWeight)} AS bound
    FROM unnest($2::text[]) WITH ORDINALITY AS l (lexeme, ord) JOIN namespace_terms nt ON nt.namespace = $1 AND nt.lexeme = l.lexeme CROSS JOIN stats st
  ),
  every AS MATERIALIZED (
    SELECT x1.unit_id, ${sum} AS score
    FROM ${scan(1)}${joins}
  ),
  theta AS MATERIALIZED (SELECT (SELECT score FROM every ORDER BY score DESC OFFSET $3 - 1 LIMIT 1) AS v),
  -- Exact when θ is above the best a unit lacking one term can score (and every term still has its row).
  exact AS MATERIALIZED (
    SELECT coalesce(${slack("t.v")} > (SELECT sum(bound) - min(bound) FROM w), false) AND (SELECT count(*) FROM w) = ${terms} AS ok FROM theta t
  ),
  scored AS (SELECT unit_id, score FROM every WHERE (SELECT ok FROM exact)),
  ${bestOf("scored")}
  ORDER BY score DESC, start_at, session_id COLLATE "C", seq
  LIMIT $3`;
}

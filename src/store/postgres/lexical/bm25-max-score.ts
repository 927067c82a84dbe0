import { IDF, bestOf, contribution, keptTermsSql, slack, termBound, termFrequency } from "./bm25-sql.js";

/**
 * A term's postings are probed per candidate (a primary-key lookup each)
 * while the candidates are fewer than its postings / PROBE_RATIO; otherwise
 * they are read whole and joined to the candidates. A probe descends the
 * B-tree from the root: on the 100k scale store 6,462 probes took ~46 ms,
 * reading a term's 8,517 postings ~3 ms (index-only both).
 */
export const PROBE_RATIO = 20;

/** Queries of more words go to the complete statement (a step per word: the statement grows with them). */
export const MAX_SCORE_MAX_TERMS = 12;

/**
 * BM25 by MaxScore (Turtle & Flood 1995), term at a time, in one statement:
 * the same hits and scores as the complete statement (bm25-lexical.ts), which
 * sums every posting of every kept term.
 *
 * Each term has an upper bound of what it can add to a unit's score: its idf
 * times the tf part at its largest tf and the shortest unit it is in
 * (namespace_terms keeps both, schema 8; the tf part grows with tf and falls
 * with length). Terms are taken from the largest bound down. After each, θ
 * is the `limit`-th best partial score so far — a lower bound of the
 * `limit`-th best final score, since scores only grow. While θ is no higher
 * than the bounds of the terms left, every posting of the next term is read
 * (the candidates are every unit seen). Once θ is above them, a unit that has
 * none of the terms read so far cannot reach θ: the candidates are closed,
 * and each later term only adds its postings of the candidates still able to
 * reach θ (partial score + bounds of the terms left ≥ θ) — probed one by one
 * while they are few, else its postings read and joined to them. So a
 * common term's postings are not all summed once the rarer ones have found
 * `limit` good units.
 *
 * The survivors hold every unit scoring θ or more, each with every term's
 * part; their scores are summed again in term order (tid), as the complete
 * statement's aggregate adds them, so the scores match to the bit, and the
 * best are cut and ordered as there (score, then conversation order).
 *
 * One step per word of the query ($2; `steps` of them, a word that is left
 * out or repeated makes an empty step). A term of several lexemes ("5-k":
 * its n is only known from its matches) makes the statement answer nothing;
 * so does a query without hits, and the caller then runs the complete one.
 * Each row also carries how many postings were read (postings_read) and how
 * many the complete statement sums (postings_all).
 */
export function maxScoreSql(k1: number, b: number, cueWeight: number, pruneMinUnits: number, steps: number, probeRatio: number): string {
  const c = contribution(k1, b, "t.idf", termFrequency(cueWeight, "p"), "p.doc_len::float8");
  const parts: string[] = [];
  for (let j = 1; j <= steps; j++) {
    if (j === 1) {
      parts.push(`x1 AS MATERIALIZED (
    SELECT p.unit_id, t.tid, ${c} AS c
    FROM ranked t JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = t.lexeme CROSS JOIN stats st
    WHERE t.r = 1
  ),
  c1 AS MATERIALIZED (SELECT unit_id, c AS s FROM x1)`);
    } else {
      const prev = `l${j - 1}`;
      parts.push(`t${j} AS MATERIALIZED (
    SELECT t.tid, t.lexeme, t.idf, g.closed, g.closed AND (SELECT count(*) FROM ${prev}) * ${probeRatio}::float8 < t.docs AS probe
    FROM ranked t CROSS JOIN g${j - 1} g WHERE t.r = ${j}
  ),
  x${j} AS MATERIALIZED (
    -- Open: every posting of the term.
    SELECT p.unit_id, t.tid, ${c} AS c
    FROM t${j} t JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = t.lexeme CROSS JOIN stats st
    WHERE NOT t.closed
    UNION ALL
    -- Closed, few candidates: each one's posting by the primary key (OFFSET 0 keeps the lookup a per-candidate probe).
    SELECT p.unit_id, p.tid, p.c
    FROM ${prev} l CROSS JOIN LATERAL (
      SELECT p.unit_id, t.tid, ${c} AS c
      FROM t${j} t JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = t.lexeme AND p.unit_id = l.unit_id CROSS JOIN stats st
      WHERE t.probe OFFSET 0) p
    WHERE (SELECT probe FROM t${j})
    UNION ALL
    -- Closed, many candidates: the term's postings read once and joined to them.
    SELECT p.unit_id, p.tid, p.c
    FROM (SELECT p.unit_id, t.tid, ${c} AS c
          FROM t${j} t JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = t.lexeme CROSS JOIN stats st
          WHERE t.closed AND NOT t.probe OFFSET 0) p
    JOIN ${prev} l ON l.unit_id = p.unit_id
  ),
  -- Hashed, not a full join: that sorted both sides by unit id at every step.
  c${j} AS MATERIALIZED (
    SELECT unit_id, sum(s) AS s FROM (SELECT unit_id, s FROM ${prev} UNION ALL SELECT unit_id, c FROM x${j}) m GROUP BY unit_id
  )`);
    }
    // θ never falls (each step's is a lower bound); closed once it is above the bounds of the terms left, and stays so.
    // θ has a CTE of its own, so its sort runs once per step.
    parts.push(`th${j} AS MATERIALIZED (
    SELECT greatest(${j > 1 ? `(SELECT theta FROM g${j - 1}), ` : ""}(SELECT s FROM c${j} ORDER BY s DESC OFFSET $3 - 1 LIMIT 1)) AS theta
  ),
  g${j} AS MATERIALIZED (
    SELECT th.theta, ${slack("th.theta")} AS lo, z.rest,
           ${j > 1 ? `(SELECT closed FROM g${j - 1}) OR ` : ""}coalesce(${slack("th.theta")} > z.rest, false) AS closed
    FROM th${j} th CROSS JOIN (SELECT coalesce((SELECT rest FROM ranked WHERE r = ${j}), 0::float8) AS rest) z
  ),
  l${j} AS MATERIALIZED (
    SELECT c.unit_id, c.s FROM c${j} c CROSS JOIN g${j} g WHERE NOT g.closed OR c.s + g.rest >= g.lo
  )`);
  }
  const allRows = Array.from({ length: steps }, (_, i) => `SELECT unit_id, tid, c FROM x${i + 1}`).join("\n    UNION ALL ");
  return `
  WITH ${keptTermsSql(pruneMinUnits)},
  plain AS MATERIALIZED (SELECT NOT EXISTS (SELECT 1 FROM kept WHERE cardinality(lexs) > 1) AS ok),
  bounded AS MATERIALIZED (
    SELECT k.tid, nt.lexeme, nt.docs, ${IDF} AS idf, ${termBound(k1, b, cueWeight)} AS bound
    FROM kept k JOIN namespace_terms nt ON nt.namespace = $1 AND nt.lexeme = k.lexs[1] CROSS JOIN stats st
    WHERE (SELECT ok FROM plain)
  ),
  -- The terms from the largest bound down; rest: the bounds of the terms after each.
  ranked AS MATERIALIZED (
    SELECT tid, lexeme, docs, idf, r, coalesce(sum(bound) OVER (ORDER BY r ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0::float8) AS rest
    FROM (SELECT *, row_number() OVER (ORDER BY bound DESC, tid) AS r FROM bounded) o
  ),
  ${parts.join(",\n  ")},
  -- The survivors' parts, summed in term order as the complete statement sums them.
  scored AS MATERIALIZED (
    SELECT x.unit_id, sum(x.c ORDER BY x.tid) AS score
    FROM (${allRows}) x JOIN l${steps} f ON f.unit_id = x.unit_id
    GROUP BY x.unit_id
  ),
  ${bestOf("scored", `, (SELECT ${Array.from({ length: steps }, (_, i) => `(SELECT count(*) FROM x${i + 1})`).join(" + ")}) AS postings_read, (SELECT sum(docs) FROM ranked)::float8 AS postings_all`)}
  ORDER BY score DESC, start_at, session_id COLLATE "C", seq
  LIMIT $3`;
}

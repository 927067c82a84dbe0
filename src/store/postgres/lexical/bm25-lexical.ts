import { createHash } from "node:crypto";
import type { LexicalChannel, Queryable } from "./lexical-channel.js";
import type { FilterNode } from "../../../model/memory-filter.js";
import { postgresFilter } from "../postgres-filter.js";
import { IDF, bestOf, contribution, keptTermsSql, termFrequency } from "./bm25-sql.js";
import { MAX_SCORE_MAX_TERMS, PROBE_RATIO, maxScoreSql } from "./bm25-max-score.js";
import { allTermsLikelyExact, allTermsSql, termPlanSql, type TermPlan } from "./bm25-all-terms.js";

export interface Bm25Options {
  /** Term-frequency saturation (FTS5: 1.2). */
  k1?: number;
  /** Length normalisation (FTS5: 0.75). */
  b?: number;
  /** How much an occurrence in the cue counts against one in the content (SQLite: bm25(fts, 1.0, 0.5)). */
  cueWeight?: number;
  /** Namespaces with at least this many units leave out terms in half of their units (default PRUNE_MIN_UNITS; tests set it low). */
  pruneMinUnits?: number;
  /**
   * How an unfiltered search of several terms avoids summing every posting,
   * with the same hits and scores: "all-terms" (the default,
   * bm25-all-terms.ts) scores only the units holding every term when no
   * other unit can reach the best `limit`; "max-score" (bm25-max-score.ts)
   * takes terms from the rarest down and stops reading whole posting lists
   * once the rest cannot lift a unit into the best; "none" always sums every
   * posting (the complete statement, which the others fall back to and
   * filtered searches use).
   */
  pruning?: "all-terms" | "max-score" | "none";
  /**
   * MaxScore: a term's postings are probed per candidate, instead of read
   * whole and joined, while the candidates are fewer than its postings
   * divided by this (default PROBE_RATIO; tests set it to force either way).
   */
  probeRatio?: number;
  /** Called after each unfiltered search with the statement that answered it (tests and benches); MaxScore adds postings read against those the complete statement sums. */
  onSearch?: (info: { path: "complete" | "all-terms" | "max-score"; postingsRead?: number; postingsAll?: number }) => void;
}

/** From this namespace size on, terms in half of its units are left out (SQLite: LEXICAL_PRUNE_MIN_UNITS). */
export const PRUNE_MIN_UNITS = 5_000;

/**
 * Okapi BM25 computed in SQL from the postings table `unit_terms`, with the
 * formula SQLite's FTS5 uses:
 *
 *   score = Σ_terms idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 *   idf   = max(1e-6, ln((N − n + 0.5) / (n + 0.5)))
 *
 * tf counts a term's occurrences, in content as 1 and in the cue as
 * `cueWeight`; len is the unit's token count, carried by each posting
 * (schema 6). N, n and avglen are taken **per namespace** (FTS5 takes them
 * over the whole file): a tenant's ranking never depends on another tenant's
 * words.
 *
 * Terms are bound as one text[] parameter; each becomes its lexemes through
 * to_tsvector with the english configuration the documents use (plainto_tsquery
 * only decides which terms are not all stop words). Lexemes are compared as
 * text, so no user text is parsed as tsquery syntax.
 *
 * This is the complete statement: a primary-key range scan (index-only since
 * schema 8) of the postings of each query lexeme, summed per unit. Unfiltered
 * searches of several terms first try to answer without summing every
 * posting, with the same result (createBm25Lexical's `pruning`:
 * bm25-all-terms.ts, bm25-max-score.ts). Units and sessions are joined only for the best `limit` (and the
 * units tied with the last of them, which the conversation order sorts).
 * In a namespace of PRUNE_MIN_UNITS units or more, a term whose lexemes are
 * each in half of its units or more (namespace_terms: one row per lexeme) is
 * left out before its postings are read: bm25 weighs it 1e-6 (its log is
 * ≤ 0), yet a speaker's name is in every unit they said. All terms that
 * common: the query stays whole. The SQLite dialect does the same.
 * N and avglen are one row of namespace_stats (schema 5), kept by triggers.
 */
function searchSql(k1: number, b: number, cueWeight: number, pruneMinUnits: number, filter?: string): string {
  const scoreOf = `sum(${contribution(k1, b, "m.idf", "m.tf", "m.doc_len")})`;
  // Unfiltered: score postings alone, then join the best. Filtered: the filter reads units and sessions, so every match joins them first.
  const ranked = filter
    ? `scored AS (
    SELECT u.id, s.start_at, u.session_id, u.seq, ${scoreOf} AS score
    FROM postings m JOIN units u ON u.namespace = $1 AND u.id = m.unit_id
         JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id CROSS JOIN stats st
    WHERE ${filter}
    GROUP BY u.id, s.start_at, u.session_id, u.seq
  )
  SELECT id, score FROM scored`
    : `scored AS MATERIALIZED (
    SELECT m.unit_id, ${scoreOf} AS score FROM postings m CROSS JOIN stats st GROUP BY m.unit_id
  ),
  ${bestOf("scored")}`;
  return `
  WITH ${keptTermsSql(pruneMinUnits)},
  -- A term of one lexeme (most): its n is namespace_terms' count, so its postings are read once, straight into the sum.
  -- In term order: the postings reach the sum term by term in this order, and
  -- MaxScore (bm25-max-score.ts) adds a unit's parts in the same order, so the
  -- two statements' scores are equal to the bit (float addition is not associative).
  single AS MATERIALIZED (
    SELECT k.tid, k.lexs[1] AS lexeme, ${IDF} AS idf
    FROM kept k JOIN namespace_terms nt ON nt.namespace = $1 AND nt.lexeme = k.lexs[1] CROSS JOIN stats st
    WHERE cardinality(k.lexs) = 1
    ORDER BY k.tid
  ),
  -- A term of several lexemes ("5-k") is an AND (plainto_tsquery): it matches
  -- a unit only when the unit has all of them; its n is counted from those matches.
  term_lexemes AS MATERIALIZED (SELECT tid, unnest(lexs) AS lexeme, cardinality(lexs) AS lexemes FROM kept WHERE cardinality(lexs) > 1),
  matches AS MATERIALIZED (
    SELECT tl.tid, p.unit_id, sum(p.tf_content + ${cueWeight}::float8 * p.tf_cue) AS tf, max(p.doc_len)::float8 AS doc_len
    FROM term_lexemes tl JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = tl.lexeme
    GROUP BY tl.tid, p.unit_id
    HAVING count(*) = max(tl.lexemes)
  ),
  idf AS MATERIALIZED (
    SELECT m.tid, greatest(1e-6::float8, ln((s.n - count(*) + 0.5::float8) / (count(*) + 0.5::float8))) AS idf
    FROM matches m CROSS JOIN stats s GROUP BY m.tid, s.n
  ),
  postings AS (
    SELECT p.unit_id, i.idf, ${termFrequency(cueWeight, "p")} AS tf, p.doc_len::float8 AS doc_len
    FROM single i JOIN unit_terms p ON p.namespace = $1 AND p.lexeme = i.lexeme
    UNION ALL
    SELECT m.unit_id, i.idf, m.tf, m.doc_len FROM matches m JOIN idf i USING (tid)
  ),
  ${ranked}
  ORDER BY score DESC, start_at, session_id COLLATE "C", seq
  LIMIT $3`;
}

function checkParam(name: string, v: number, min: number, max: number): number {
  if (!Number.isFinite(v) || v < min || v > max) throw new RangeError(`${name} must be a number in [${min}, ${max}]`);
  return v;
}

/** BM25 over the english configuration (needs schema version 6: unit_terms with doc_len, namespace_stats, namespace_terms). */
export function createBm25Lexical(options: Bm25Options = {}): LexicalChannel {
  const k1 = checkParam("k1", options.k1 ?? 1.2, 0, 10);
  const b = checkParam("b", options.b ?? 0.75, 0, 1);
  const cueWeight = checkParam("cueWeight", options.cueWeight ?? 0.5, 0, 1);
  // Only checked numbers are spliced into the SQL; user terms travel as parameters.
  const pruneMinUnits = checkParam("pruneMinUnits", options.pruneMinUnits ?? PRUNE_MIN_UNITS, 0, Number.MAX_SAFE_INTEGER);
  const pruning = options.pruning ?? "all-terms";
  const probeRatio = checkParam("probeRatio", options.probeRatio ?? PROBE_RATIO, 0, Number.MAX_SAFE_INTEGER);
  const named = (text: string) => ({ name: `ramem_bm25_${createHash("sha1").update(text).digest("hex").slice(0, 12)}`, text });
  const complete = named(searchSql(k1, b, cueWeight, pruneMinUnits));
  const termPlan = named(termPlanSql(k1, b, cueWeight, pruneMinUnits));
  // The pruning statements depend on how many terms there are: one per count, made on first use.
  const byCount = new Map<string, { name: string; text: string }>();
  const statementFor = (kind: "all-terms" | "max-score", n: number) => {
    let statement = byCount.get(`${kind}/${n}`);
    if (!statement) {
      statement = named(kind === "all-terms" ? allTermsSql(k1, b, cueWeight, n) : maxScoreSql(k1, b, cueWeight, pruneMinUnits, n, probeRatio));
      byCount.set(`${kind}/${n}`, statement);
    }
    return statement;
  };
  const toHits = (rows: ReadonlyArray<{ id: string; score: number }>) => rows.map((r, i) => ({ id: r.id, score: Number(r.score), rank: i + 1 }));

  /** The all-terms answer, or null when it is not known to be exact (then the complete statement answers). */
  async function allTerms(db: Queryable, namespace: string, words: string[], limit: number) {
    const { rows: plan } = await db.query<TermPlan>({ ...termPlan, values: [namespace, words] });
    // A term of several lexemes ("5-k") counts its n from its matches: the complete statement handles it.
    if (plan.some((t) => t.lexs.length !== 1)) return null;
    // A term in no unit adds nothing to any score: left out, as the complete statement's join leaves it.
    const terms = plan.filter((t) => t.docs !== null);
    if (terms.length < 2 || terms.length > MAX_SCORE_MAX_TERMS || !allTermsLikelyExact(terms)) return null;
    const { rows } = await db.query<{ id: string; score: number }>({ ...statementFor("all-terms", terms.length), values: [namespace, terms.map((t) => t.lexs[0]), limit] });
    return rows.length > 0 ? rows : null;
  }

  return {
    specificationVersion: "v1",
    id: `bm25/english/k1=${k1}/b=${b}/cue=${cueWeight}/prune=${pruneMinUnits}`,
    async search(db, namespace, terms, limit, where?: FilterNode) {
      // PostgreSQL text cannot hold NUL; such a character can only be noise in a word.
      const words = terms.map((t) => t.replaceAll("\0", "").trim()).filter((t) => t.length > 0);
      if (words.length === 0 || limit <= 0) return [];
      if (where) {
        // IDF and average length stay the namespace's: a filter narrows the hits, not the statistics.
        const values: unknown[] = [namespace, words, limit];
        const filtered = searchSql(k1, b, cueWeight, pruneMinUnits, postgresFilter(where, values));
        const { rows } = await db.query<{ id: string; score: number }>(filtered, values);
        return toHits(rows);
      }
      const values = [namespace, words, limit];
      if (pruning === "all-terms" && words.length > 1) {
        const rows = await allTerms(db, namespace, words, limit);
        if (rows) {
          options.onSearch?.({ path: "all-terms" });
          return toHits(rows);
        }
      }
      // MaxScore answers nothing for a term of several lexemes (and for no hits): then the complete statement decides.
      if (pruning === "max-score" && words.length > 1 && words.length <= MAX_SCORE_MAX_TERMS) {
        const { rows } = await db.query<{ id: string; score: number; postings_read: string; postings_all: number }>({ ...statementFor("max-score", words.length), values });
        if (rows.length > 0) {
          options.onSearch?.({ path: "max-score", postingsRead: Number(rows[0]!.postings_read), postingsAll: Number(rows[0]!.postings_all) });
          return toHits(rows);
        }
      }
      // Named: prepared once per connection, so the planner does not re-plan this long statement on every call.
      const { rows } = await db.query<{ id: string; score: number }>({ ...complete, values });
      options.onSearch?.({ path: "complete" });
      return toHits(rows);
    },
  };
}
